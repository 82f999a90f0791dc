package canary

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// pyTwin is the twin of the Python test id (unittest's module.Class.test_x,
// pytest's JUnit file.Class.test_x or file.test_x, a parameter suffix
// dropped) under the token tok: its test file copied into the same
// directory as test_<tok>.py, the test's function renamed test_<tok> and
// its class Test<tok>, and each helper module it imports from that
// directory (helperFile) copied under a fresh name, the imports and the
// helpers' top-level names renamed in both. It is empty when the file is
// not found.
func (c *Set) pyTwin(dir, id, tok string) twinFiles {
	if i := strings.IndexByte(id, '['); i >= 0 {
		id = id[:i]
	}
	parts := strings.Split(id, ".")
	var mod string
	var rest []string
	for n := len(parts) - 1; n >= 1; n-- {
		rel := strings.Join(parts[:n], "/") + ".py"
		if st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel))); err == nil && st.Mode().IsRegular() {
			mod, rest = rel, parts[n:]
			break
		}
	}
	if mod == "" || len(rest) > 2 {
		return twinFiles{}
	}
	src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(mod)))
	if err != nil {
		return twinFiles{}
	}
	fn := rest[len(rest)-1]
	if !regexp.MustCompile(`(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+` + regexp.QuoteMeta(fn) + `[ \t]*\(`).Match(src) {
		return twinFiles{} // defined elsewhere (a base class, a generated test): not copied
	}
	names := map[string]string{fn: "test_" + tok}
	if len(rest) == 2 {
		names[rest[0]] = "Test" + tok
	}
	at := path.Dir(mod)
	helpers := map[string][]byte{}
	for j, m := range pyImports(string(src)) {
		rel := path.Join(at, m+".py")
		if _, done := names[m]; done || !c.helperFile(dir, rel, "python") {
			continue
		}
		h, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		fresh := fmt.Sprintf("planxtwin_%sh%d", strings.ToLower(tok), j)
		names[m] = fresh
		for _, d := range pyTopNames(string(h)) {
			if _, taken := names[d]; !taken {
				names[d] = d + "_" + tok
			}
		}
		helpers[path.Join(at, fresh+".py")] = h
	}
	files := map[string]string{path.Join(at, "test_"+tok+".py"): pyRename(string(src), names)}
	for rel, h := range helpers {
		files[rel] = pyRename(string(h), names)
	}
	return twinFiles{files: files, place: at}
}

var (
	pyFromImport = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+\.?([A-Za-z_]\w*)[ \t]+import\b`)
	pyImport     = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+([\w \t,]+)`)
	pyTopDef     = regexp.MustCompile(`(?m)^(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)`)
)

// pyImports are the single-word modules src imports (from m import …,
// from .m import …, import m, n as o), in order, each once.
func pyImports(src string) []string {
	var out []string
	add := func(m string) {
		if m != "" && !strings.Contains(strings.Join(out, " ")+" ", " "+m+" ") {
			out = append(out, m)
		}
	}
	for _, m := range pyFromImport.FindAllStringSubmatch(src, -1) {
		add(m[1])
	}
	for _, m := range pyImport.FindAllStringSubmatch(src, -1) {
		for _, w := range strings.Split(m[1], ",") {
			if f := strings.Fields(w); len(f) > 0 {
				add(f[0])
			}
		}
	}
	return out
}

// pyTopNames are the functions and classes src defines at its top level.
func pyTopNames(src string) []string {
	var out []string
	for _, m := range pyTopDef.FindAllStringSubmatch(src, -1) {
		out = append(out, m[1])
	}
	return out
}

// pyRename renames, in the Python source src, every identifier that
// names maps, outside strings and comments. After a dot, only a relative
// import's module or an attribute of a renamed name is renamed: x.sub is
// some other object's attribute.
func pyRename(src string, names map[string]string) string {
	var b strings.Builder
	prevRenamed := false // the last identifier was renamed
	for i := 0; i < len(src); {
		ch := src[i]
		switch {
		case ch == '#':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			b.WriteString(src[i : i+j])
			i += j
		case ch == '\'' || ch == '"':
			j := pyStringEnd(src, i)
			b.WriteString(src[i:j])
			i = j
		case isIdentStart(ch):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			word := src[i:j]
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbuf") == "" {
				b.WriteString(word) // a string prefix
				i = j
				continue
			}
			to, ok := names[word]
			if ok && afterDot(src, i) && !prevRenamed && !relativeImport(src, i) {
				ok = false
			}
			if ok {
				word = to
			}
			prevRenamed = ok
			b.WriteString(word)
			i = j
		default:
			if ch != '.' && ch != ' ' {
				prevRenamed = false
			}
			b.WriteByte(ch)
			i++
		}
	}
	return b.String()
}

// pyStringEnd is the index just after the string literal that opens at i.
func pyStringEnd(src string, i int) int {
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], strings.Repeat(q, 3)) {
		q = strings.Repeat(q, 3)
	}
	for j := i + len(q); j < len(src); j++ {
		switch {
		case src[j] == '\\':
			j++
		case strings.HasPrefix(src[j:], q):
			return j + len(q)
		case src[j] == '\n' && len(q) == 1:
			return j
		}
	}
	return len(src)
}

// afterDot says the identifier at i follows a dot (spaces between).
func afterDot(src string, i int) bool {
	j := i - 1
	for j >= 0 && src[j] == ' ' {
		j--
	}
	return j >= 0 && src[j] == '.'
}

// relativeImport says the identifier at i follows the dots of a relative
// import (from .m import …).
func relativeImport(src string, i int) bool {
	j := i - 1
	for j >= 0 && src[j] == '.' {
		j--
	}
	return strings.HasSuffix(strings.TrimRight(src[:j+1], " \t"), "from")
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }
