package judge

import (
	"bytes"
	"slices"
	"strings"
)

// pyOps are Python's operators of more than one character, longest first.
var pyOps = []string{"**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "==", "!=", "<=", ">=",
	"<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="}

// pyKeywords are the words after which a bracket opens no call or
// subscript ((a,) after `return` is a tuple).
var pyKeywords = []string{"and", "as", "assert", "async", "await", "break", "case", "class", "continue",
	"def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
	"lambda", "match", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"}

// Python's tokens that are no text of the source: a logical line's end,
// and a block opened or closed by indentation.
const (
	pyTokNewline = "\n"
	pyTokIndent  = "\t>"
	pyTokDedent  = "\t<"
)

// pyKey returns a Python file's tokens as black leaves them: whitespace
// dropped except where it makes blocks (a logical line's end, its
// indentation as blocks opened and closed), a string by its value where
// the quotes are a matter of style, a docstring by its cleaned text,
// numbers in lower case, and no trailing comma that changes nothing. ok
// is false when the indentation is not Python's.
func pyKey(src []byte) ([]string, bool) {
	var toks []string
	indents := []int{0}
	depth, i := 0, 0
	lineStart, lineToks := true, false
	emit := func(t string) { toks, lineToks = append(toks, t), true }
	for i < len(src) {
		if lineStart && depth == 0 {
			ts, next, code, ok := pyLine(src, i, &indents)
			if !ok {
				return nil, false
			}
			toks, i, lineStart = append(toks, ts...), next, !code
			continue
		}
		c := src[i]
		switch {
		case c == '\n':
			if depth == 0 && lineToks {
				toks = append(toks, pyTokNewline)
				lineStart, lineToks = true, false
			}
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '\\' && (bytes.HasPrefix(src[i+1:], []byte("\n")) || bytes.HasPrefix(src[i+1:], []byte("\r\n"))):
			i = lineEnd(src, i) + 1 // a continued line
		case c == '#':
			e := lineEnd(src, i)
			toks, i = append(toks, commentKey(src[i:e])), e
		case c == '\'' || c == '"':
			var k string
			k, i = pyString(src, i, "", !lineToks && depth == 0)
			emit(k)
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			e := numberEnd(src, i)
			emit(strings.ToLower(string(src[i:e])))
			i = e
		case isWordByte(c) || c >= 0x80:
			e := wordEnd(src, i)
			if w := string(src[i:e]); e < len(src) && (src[e] == '\'' || src[e] == '"') && isPyPrefix(w) {
				var k string
				k, i = pyString(src, e, w, !lineToks && depth == 0)
				emit(k)
				continue
			}
			emit(string(src[i:e]))
			i = e
		default:
			op := longestOp(src, i, pyOps)
			switch op {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth = max(depth-1, 0)
			}
			emit(op)
			i += len(op)
		}
	}
	if lineToks {
		toks = append(toks, pyTokNewline)
	}
	for range indents[1:] {
		toks = append(toks, pyTokDedent)
	}
	return dropTrailingCommas(toks, pyKeepComma, pyCallLike), true
}

// pyLine reads the start of the line at i, outside brackets. A blank or
// comment-only line makes no block: it returns the comment, if any, and
// next is past the line. Otherwise the indentation opens or closes blocks
// (indents follows), and next is where the code starts. ok is false for a
// dedent to no open block.
func pyLine(src []byte, i int, indents *[]int) (toks []string, next int, code, ok bool) {
	col, j := pyIndentAt(src, i)
	if j >= len(src) {
		return nil, j, false, true
	}
	if c := src[j]; c == '\n' || c == '\r' || c == '#' {
		e := lineEnd(src, j)
		if c == '#' {
			toks = append(toks, commentKey(src[j:e]))
		}
		return toks, e + 1, false, true
	}
	in := *indents
	for col < in[len(in)-1] {
		in = in[:len(in)-1]
		toks = append(toks, pyTokDedent)
	}
	if col > in[len(in)-1] {
		in = append(in, col)
		toks = append(toks, pyTokIndent)
	}
	*indents = in
	return toks, j, true, col == in[len(in)-1]
}

// pyKeepComma: (a,) is a tuple and x[a,] a tuple index; a call's or a
// display's trailing comma, or one after two elements, changes nothing.
func pyKeepComma(opener string, callLike bool, commas int) bool {
	switch opener {
	case "(":
		return !callLike && commas < 2
	case "[":
		return callLike && commas < 2
	}
	return false
}

// pyCallLike reports whether a bracket after the token prev opens a call
// or a subscript: after a name, a closing bracket or a string.
func pyCallLike(prev string) bool {
	switch {
	case prev == ")" || prev == "]":
		return true
	case prev == "" || slices.Contains(pyKeywords, prev):
		return false
	case prev[0] == '\'' || prev[0] == '"':
		return true
	}
	return isWordByte(prev[0]) && !isDigit(prev[0]) || prev[0] >= 0x80
}

// pyIndentAt measures the indentation of the line starting at i (a tab to
// the next multiple of 8, as Python does) and returns it with the index of
// the line's first other byte.
func pyIndentAt(src []byte, i int) (int, int) {
	col := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case ' ':
			col++
		case '\t':
			col = (col/8 + 1) * 8
		case '\f':
			col = 0
		default:
			return col, i
		}
	}
	return col, i
}

// lineEnd returns the index of the newline ending the line at i, or
// len(src).
func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// commentKey is a comment without its whitespace.
func commentKey(c []byte) string {
	return strings.Join(strings.Fields(string(c)), "")
}

// isPyPrefix reports whether w is a string prefix: r, b, u, f and their
// pairs, in either case.
func isPyPrefix(w string) bool {
	if len(w) > 2 {
		return false
	}
	for _, c := range strings.ToLower(w) {
		if !strings.ContainsRune("rbuf", c) {
			return false
		}
	}
	return true
}

// pyString reads the string literal whose quote is at i, with its prefix,
// and returns its key and the index past it. A triple-quoted string that
// starts a statement (a docstring) is keyed by its cleaned text.
func pyString(src []byte, i int, prefix string, statement bool) (string, int) {
	p := []byte(strings.ReplaceAll(strings.ToLower(prefix), "u", ""))
	slices.Sort(p)
	raw := bytes.IndexByte(p, 'r') >= 0
	q := src[i]
	if triple := []byte{q, q, q}; bytes.HasPrefix(src[i:], triple) {
		j := i + 3
		for j < len(src) && !bytes.HasPrefix(src[j:], triple) {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		content := string(src[i+3 : min(j, len(src))])
		if statement {
			content = cleanDoc(content)
		}
		return `"` + string(p) + ":" + content, min(j+3, len(src))
	}
	j := i + 1
	for j < len(src) && src[j] != q && src[j] != '\n' {
		if src[j] == '\\' {
			j++
		}
		j++
	}
	j = min(j, len(src))
	return quotedKey(string(p), src[i+1:j], raw), min(j+1, len(src))
}

// cleanDoc is a docstring's text as black leaves it, and as Python's
// inspect.cleandoc reads it: tabs expanded, the first line and the
// trailing whitespace of each line stripped, the other lines' common
// indentation removed, no blank lines at either end.
func cleanDoc(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\t", "        "), "\n")
	common := -1
	for _, l := range lines[1:] {
		if t := strings.TrimLeft(l, " "); t != "" && (common < 0 || len(l)-len(t) < common) {
			common = len(l) - len(t)
		}
	}
	for k, l := range lines {
		if k > 0 && common > 0 && len(l) >= common {
			l = l[common:]
		}
		lines[k] = strings.TrimRight(l, " \r")
	}
	lines[0] = strings.TrimSpace(lines[0])
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}
