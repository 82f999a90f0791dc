package judge

import (
	"fmt"
	"regexp"
	"strings"
)

// Rust keeps its unit tests in the file they test (#[cfg(test)] mod tests
// with #[test] functions), where the test-file globs cannot see them: an
// agent asked to change src/lib.rs, which it declares, could rewrite the
// assertions of the tests below the code, mark them #[ignore], or turn off
// the test module. An existing inline test that the task changes or
// removes, or a #[cfg(test)] it removes, fails it, unless the task's text
// names that test (a task may be about its tests). Whitespace alone (cargo
// fmt) does not count; new tests are welcome.

// InlineTestChanges lists how a task changed the inline tests of the Rust
// file p (before and after its change): tests changed or removed that
// taskText does not name, and #[cfg(test)] removed.
func InlineTestChanges(p string, before, after []byte, taskText string) []string {
	old := rustTests(before)
	if len(old) == 0 {
		return nil
	}
	now := rustTests(after)
	var out []string
	for name, body := range old {
		nb, ok := now[name]
		if name == cfgTestKey {
			if !ok || nb < body {
				out = append(out, fmt.Sprintf("turned off test code in %s (fewer #[cfg(test)])", p))
			}
			continue
		}
		if fn, _, _ := strings.Cut(name, "#"); regexp.MustCompile(`\b` + regexp.QuoteMeta(fn) + `\b`).MatchString(taskText) {
			continue // the task is about this test
		}
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("deleted the test %s in %s (an inline test)", name, p))
		case nb != body:
			out = append(out, fmt.Sprintf("modified the test %s in %s (an inline test)", name, p))
		}
	}
	return out
}

// cfgTestKey holds, in rustTests' map, how many #[cfg(test)] the file has.
const cfgTestKey = "#[cfg(test)]"

var (
	rustTestAttrRE = regexp.MustCompile(`#\[\s*(?:[A-Za-z_]\w*::)*test\s*(?:\(|\])`)
	rustFnRE       = regexp.MustCompile(`\bfn\s+([A-Za-z_]\w*)`)
	rustCharRE     = regexp.MustCompile(`^'(?:\\.|[^\\'])'`)
	rustCfgTestRE  = regexp.MustCompile(`#\[\s*cfg\s*\(\s*test\s*\)\s*\]`)
)

// rustTests maps each test function of a Rust source file (#[test],
// #[tokio::test] and the like) to its text from its first attribute to its
// closing brace without white space (cargo fmt moves it); and cfgTestKey to the number of
// #[cfg(test)] attributes, as a zero-padded string.
func rustTests(src []byte) map[string]string {
	s := string(src)
	out := map[string]string{}
	if n := len(rustCfgTestRE.FindAllStringIndex(s, -1)); n > 0 {
		out[cfgTestKey] = fmt.Sprintf("%06d", n)
	}
	for _, m := range rustTestAttrRE.FindAllStringIndex(s, -1) {
		start := attrBlockStart(s, m[0])
		fn := rustFnRE.FindStringSubmatchIndex(s[m[1]:])
		if fn == nil {
			continue
		}
		name := s[m[1]+fn[2] : m[1]+fn[3]]
		open := strings.IndexByte(s[m[1]+fn[1]:], '{')
		if open < 0 {
			continue
		}
		end := braceEnd(s, m[1]+fn[1]+open)
		if end < 0 {
			continue
		}
		key := name
		for i := 2; out[key] != ""; i++ {
			key = fmt.Sprintf("%s#%d", name, i)
		}
		out[key] = strings.Join(strings.Fields(s[start:end]), "")
	}
	return out
}

// attrBlockStart moves back from the attribute at i over the attribute
// lines just above it (#[ignore] written before #[test] counts).
func attrBlockStart(s string, i int) int {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	for start > 0 {
		prev := strings.LastIndexByte(s[:start-1], '\n') + 1
		if !strings.HasPrefix(strings.TrimSpace(s[prev:start-1]), "#[") {
			break
		}
		start = prev
	}
	return start
}

// braceEnd returns the index just past the brace closing the one at
// open, skipping strings, character literals and comments; -1 if none.
func braceEnd(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case c == '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case c == '\'':
			if m := rustCharRE.FindString(s[i:]); m != "" {
				i += len(m) - 1
			} // else a lifetime
		case strings.HasPrefix(s[i:], "//"):
			if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
				i += nl
			} else {
				return -1
			}
		case strings.HasPrefix(s[i:], "/*"):
			if e := strings.Index(s[i+2:], "*/"); e >= 0 {
				i += e + 3
			} else {
				return -1
			}
		}
	}
	return -1
}
