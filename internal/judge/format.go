package judge

import (
	"bytes"
	"go/format"
	"go/scanner"
	"go/token"
	"path"
	"slices"
	"strings"
)

// An agent that runs the formatter over the repository (gofmt -w ., black,
// prettier) rewrites test files it was not asked to touch. That weakens no
// test: formatOnly tells such a change from one to what the tests
// say. It compares the files as the language reads them, not as bytes:
//
//   - Go: equal in gofmt's canonical form (go/format), or equal token by
//     token, comments included (a //go:build line is a comment);
//   - Python: the same tokens, whitespace dropped, with the indentation
//     kept as the blocks it makes (an assert indented into an if is a
//     change); string quotes and a trailing comma that changes no value
//     (black's) do not count, nor a docstring's indentation;
//   - JavaScript, TypeScript: the same tokens, whitespace dropped, except
//     a line break after return, throw, break, continue or yield (where
//     JavaScript ends the statement); quotes and trailing commas as above,
//     and a semicolon that ends a line where JavaScript would insert one.
//
// Other files have no formatting-only change: any change counts. Nor has
// test data (testdata/, fixtures/, snapshots, golden and approved files,
// JSON): a test may compare its bytes, so that reformatting it can make a
// wrong output pass.

// FormatOnly reports whether the file p changed from before to after in
// its formatting alone.
func FormatOnly(p string, before, after []byte) bool {
	if bytes.Equal(before, after) {
		return true
	}
	if testData(p) {
		return false
	}
	var key func([]byte) ([]string, bool)
	switch path.Ext(p) {
	case ".go":
		return goFormatOnly(before, after)
	case ".py", ".pyi":
		key = pyKey
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		key = jsKey
	default:
		return false
	}
	a, okA := key(before)
	b, okB := key(after)
	return okA && okB && slices.Equal(a, b)
}

// goFormatOnly compares two Go files by their canonical form and by their
// tokens; a file that does not parse has no canonical form.
func goFormatOnly(before, after []byte) bool {
	if a, b := goTokens(before), goTokens(after); a != nil && slices.Equal(a, b) {
		return true
	}
	a, err := format.Source(before)
	if err != nil {
		return false
	}
	b, err := format.Source(after)
	return err == nil && bytes.Equal(a, b)
}

// goTokens lists a Go file's tokens with their text, comments included; a
// semicolon is one whether written or put in by a line break. nil for a
// file the scanner reports an error in.
func goTokens(src []byte) []string {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	bad := false
	s.Init(f, src, func(token.Position, string) { bad = true }, scanner.ScanComments)
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.SEMICOLON:
			lit = ""
		case token.COMMENT:
			lit = strings.TrimRight(lit, " \t\r")
		}
		out = append(out, tok.String()+" "+lit)
	}
	if bad {
		return nil
	}
	return out
}

// testData reports files that tests read as data, whose bytes a test may
// compare: under testdata/, fixtures/, __fixtures__/ or __snapshots__/,
// snapshots, golden and approved files.
func testData(p string) bool {
	for _, g := range []string{"testdata/", "fixtures/", "__fixtures__/", "__snapshots__/", "*.snap", "*.golden", "*.approved.*"} {
		if MatchGlob(g, p) {
			return true
		}
	}
	return false
}

// quoteEnd returns the index just past the string literal opened by the
// quote q at i (a backslash escapes the next byte), or len(src) when it is
// not closed.
func quoteEnd(src []byte, i int, q byte) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(src)
}

// quotedKey is a one-line string literal's key in Python and JavaScript,
// where 'it\'s' and "it's" are the same string: its content with the
// quotes unescaped. A raw string (prefix with r) is kept as written.
func quotedKey(prefix string, content []byte, raw bool) string {
	c := string(content)
	if !raw {
		c = strings.NewReplacer(`\'`, `'`, `\"`, `"`).Replace(c)
	}
	return "'" + prefix + ":" + c
}

// dropTrailingCommas removes the commas before a closing bracket that make
// no difference: keep reports, for the comma before a closer, whether it
// must stay (given what opened the bracket and how many commas it holds).
// A comma right after an opener or another comma stays: [,] is not [].
func dropTrailingCommas(toks []string, keep func(opener string, callLike bool, commas int) bool, callLike func(prev string) bool) []string {
	type group struct {
		opener string
		call   bool
		commas int
	}
	var stack []group
	var out []string
	for _, t := range toks {
		switch t {
		case "(", "[", "{":
			prev := ""
			if len(out) > 0 {
				prev = out[len(out)-1]
			}
			stack = append(stack, group{opener: t, call: callLike(prev)})
		case ",":
			if len(stack) > 0 {
				stack[len(stack)-1].commas++
			}
		case ")", "]", "}":
			if len(stack) == 0 {
				break
			}
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n := len(out)
			if n >= 2 && out[n-1] == "," && out[n-2] != "," && !isOpener(out[n-2]) && !keep(g.opener, g.call, g.commas) {
				out = out[:n-1]
			}
		}
		out = append(out, t)
	}
	return out
}

func isOpener(t string) bool { return t == "(" || t == "[" || t == "{" }

// longestOp returns the longest of ops that src[i:] starts with, else the
// one byte at i.
func longestOp(src []byte, i int, ops []string) string {
	for _, op := range ops {
		if bytes.HasPrefix(src[i:], []byte(op)) {
			return op
		}
	}
	return string(src[i])
}

// wordEnd returns the index past the identifier (or keyword) at i; bytes
// of 0x80 and above count as letters.
func wordEnd(src []byte, i int) int {
	j := i
	for j < len(src) && (isWordByte(src[j]) || src[j] >= 0x80) {
		j++
	}
	return j
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// numberEnd returns the index past the number literal at i: digits,
// letters, '_' and '.', and a sign right after an exponent's e.
func numberEnd(src []byte, i int) int {
	j := i
	for j < len(src) {
		c := src[j]
		switch {
		case isWordByte(c) || c == '.':
		case (c == '+' || c == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !isHex(src[i:j]):
		default:
			return j
		}
		j++
	}
	return j
}

func isHex(num []byte) bool {
	return len(num) > 1 && num[0] == '0' && (num[1] == 'x' || num[1] == 'X')
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
