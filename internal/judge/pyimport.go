package judge

import (
	"bytes"
	"regexp"
	"strings"
)

// pyCallRE matches, in code with its strings blanked, a call of os._exit
// (or _exit imported from os) or a module-level skip.
var pyCallRE = regexp.MustCompile(`(?:^|[^\w.])(?:os\.)?_exit\s*\(|(?:^|[^\w.])(?:pytest\.)?skip\s*\([^)]*allow_module_level\s*=\s*True`)

// pyPatchRE matches, in code with its strings blanked (sys.modules keys
// are read from the line as written: pySysModulesSet), a replacement of
// what the test frameworks judge with: an assertion or run method of
// unittest's TestCase, pytest's or unittest's entry points,
// builtins.AssertionError, or a test framework's module itself. A test
// module's `unittest.TestCase.maxDiff = None` is configuration, not this.
var pyPatchRE = regexp.MustCompile(`(?:^|[^\w.])(?:unittest\.)?(?:case\.)?TestCase\.(?:assert\w*|fail\w*|run|debug|__call__)\s*=[^=]` +
	`|(?:^|[^\w.])(?:_?pytest|unittest|builtins)\.(?:\w+\.)*(?:fail|skip|raises|main|exit|AssertionError|assert\w*|TestProgram|TextTestRunner)\s*=[^=]` +
	`|setattr\(\s*(?:unittest\.|case\.)?(?:TestCase|unittest|_?pytest|builtins)\s*,` +
	`|sys\.modules\[`)

// pyDefRE matches a function definition's header: its body runs when the
// function is called, not when the module is imported. A class body runs
// at import, as do the bodies of if, try, with, for and while.
var pyDefRE = regexp.MustCompile(`^(?:async\s+)?def\s`)

// pyTakeovers lists the statements of a Python module that end or skip a
// test run as the module is imported: those outside any function body,
// however deeply they sit in if/try/with/class blocks.
func pyTakeovers(src []byte) []string {
	var out []string
	defIndent := -1 // the indentation of the def whose body we are in
	depth := 0      // open brackets: a line inside them continues a statement
	raw := strings.Split(string(src), "\n")
	for i, line := range strings.Split(string(pyBlankStrings(src)), "\n") {
		code, _, _ := strings.Cut(line, "#")
		text := strings.TrimLeft(code, " \t")
		if text == "" {
			continue
		}
		if depth == 0 {
			ind := pyIndent(code)
			if defIndent >= 0 && ind <= defIndent {
				defIndent = -1
			}
			if defIndent < 0 && pyDefRE.MatchString(text) {
				defIndent = ind
			}
		}
		depth = max(0, depth+strings.Count(code, "(")+strings.Count(code, "[")+strings.Count(code, "{")-
			strings.Count(code, ")")-strings.Count(code, "]")-strings.Count(code, "}"))
		if defIndent >= 0 {
			continue
		}
		for _, m := range pyCallRE.FindAllString(text, -1) {
			if strings.Contains(m, "allow_module_level") {
				out = append(out, "skips at module level")
			} else {
				out = append(out, "calls os._exit at import")
			}
		}
		for _, m := range pyPatchRE.FindAllString(text, -1) {
			if strings.HasPrefix(m, "sys.modules[") && !pySysModulesSet.MatchString(raw[i]) {
				continue // read, or another module's
			}
			out = append(out, "replaces part of the test framework at import")
		}
	}
	return out
}

// pySysModulesSet matches, in a line as written, an assignment of a test
// framework's module into sys.modules: a fake unittest or pytest put there
// before the tests import it. (Tests often put mocks of other modules
// there.)
var pySysModulesSet = regexp.MustCompile(`sys\.modules\[\s*['"](?:unittest|_?pytest|builtins)(?:\.[\w.]*)?['"]\s*\]\s*=[^=]`)

// pyIndent is a line's indentation, a tab counting to the next multiple
// of 8 as Python's tokenizer counts it.
func pyIndent(line string) int {
	n := 0
	for _, c := range line {
		switch c {
		case ' ':
			n++
		case '\t':
			n = n/8*8 + 8
		default:
			return n
		}
	}
	return n
}

// pyBlankStrings replaces the contents of Python string literals (quotes
// included; triple-quoted ones across lines) with spaces, keeping the
// newlines, so that text in strings and docstrings reads as no code.
func pyBlankStrings(src []byte) []byte {
	b := bytes.Clone(src)
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '#': // a comment: up to the end of the line, strings or not
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case '\'', '"':
			q := b[i : i+1]
			if i+2 < len(b) && b[i+1] == b[i] && b[i+2] == b[i] {
				q = b[i : i+3]
			}
			end := pyStringEnd(b, i+len(q), string(q))
			for j := i; j < end; j++ {
				if b[j] != '\n' {
					b[j] = ' '
				}
			}
			i = end - 1
		}
	}
	return b
}

// pyStringEnd returns the index just past the string literal whose body
// starts at i and is closed by q; an unclosed one ends at its line's end
// (one quote) or at the end of the source (three).
func pyStringEnd(b []byte, i int, q string) int {
	for ; i < len(b); i++ {
		switch {
		case b[i] == '\\':
			i++
		case b[i] == '\n' && len(q) == 1:
			return i
		case bytes.HasPrefix(b[i:], []byte(q)):
			return i + len(q)
		}
	}
	return len(b)
}
