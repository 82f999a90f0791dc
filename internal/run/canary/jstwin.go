package canary

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/planx-dev/planx/internal/testreport"
)

// nodeTwin is the twin of the node test id (its title, nested titles
// joined by " > ") under the token tok: the first test file that calls
// test, it or describe with the outermost title, copied into its own
// directory as planxtwin-<tok>.test<ext>, each title of id prefixed with
// tok and every other literal title of a test, it or describe call with
// testreport.TwinCopy (the file's other tests, copied with it, are known
// by it and taken out of the report), and each relative import of a helper (helperFile) pointed at a
// copy of it under a fresh name. Identifiers are not renamed. It is empty
// when no file has the title.
func (c *Set) nodeTwin(dir, id, tok string) twinFiles {
	first := titleCall(strings.Split(id, " > ")[0])
	var rel string
	var src []byte
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || rel != "" {
			return fs.SkipAll
		}
		r, _ := filepath.Rel(dir, p)
		r = filepath.ToSlash(r)
		if d.IsDir() {
			if r != "." && skipDir(p, d.Name(), "node") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !isRunnerTest(d.Name(), r, "node") {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && first.Match(b) {
			rel, src = r, b
		}
		return nil
	})
	if rel == "" {
		return twinFiles{}
	}
	text := string(src)
	for _, t := range strings.Split(id, " > ") {
		text = titleCall(t).ReplaceAllStringFunc(text, func(m string) string {
			at := len(m) - len(t) - 1 // after the opening quote
			return m[:at] + tok + " " + m[at:]
		})
	}
	text = copyTitles(text, tok, testreport.TwinCopy(c.nonce))
	at := path.Dir(rel)
	files := map[string]string{}
	j := 0
	text = jsImport.ReplaceAllStringFunc(text, func(m string) string {
		sub := jsImport.FindStringSubmatch(m)
		spec := sub[3]
		h := path.Join(at, spec)
		ext := path.Ext(h)
		if ext != ".js" && ext != ".mjs" && ext != ".cjs" || !c.helperFile(dir, h, "node") {
			return m
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(h)))
		if err != nil {
			return m
		}
		fresh := fmt.Sprintf("planxtwin-%sh%d%s", strings.ToLower(tok), j, ext)
		j++
		files[path.Join(path.Dir(h), fresh)] = string(b)
		return sub[1] + sub[2] + path.Dir(spec) + "/" + fresh + sub[2]
	})
	ext := path.Ext(rel)
	files[path.Join(at, "planxtwin-"+strings.ToLower(tok)+".test"+ext)] = text
	return twinFiles{files: files, place: at}
}

// jsImport matches a relative module specifier after from, import( or
// require(: the words before it, the quote, the specifier.
var jsImport = regexp.MustCompile(`(\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)(['"])(\.\.?/[^'"\n]+)['"]`)

// anyTitle matches the opening of a test, it, describe or suite call up to
// the quote of its literal title.
var anyTitle = regexp.MustCompile(`\b(?:test|it|describe|suite)(?:\.\w+)?\(\s*['"` + "`" + `]`)

// copyTitles inserts mark before every literal title of text that does
// not already start with the twin's token tok.
func copyTitles(text, tok, mark string) string {
	var b strings.Builder
	last := 0
	for _, m := range anyTitle.FindAllStringIndex(text, -1) {
		b.WriteString(text[last:m[1]])
		last = m[1]
		if !strings.HasPrefix(text[m[1]:], tok) {
			b.WriteString(mark + " ")
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// titleCall matches a call of node:test's test, it, describe or suite
// (test.skip, it.only … too) whose first argument is the literal title.
func titleCall(title string) *regexp.Regexp {
	t := regexp.QuoteMeta(title)
	return regexp.MustCompile(`\b(?:test|it|describe|suite)(?:\.\w+)?\(\s*(?:'` + t + `'|"` + t + `"|` + "`" + t + "`" + `)`)
}
