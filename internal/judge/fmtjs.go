package judge

import (
	"bytes"
	"slices"
	"strings"
)

// jsOps are JavaScript's and TypeScript's punctuators of more than one
// character, longest first.
var jsOps = []string{">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "**", "<<", ">>"}

// jsRegexAfter are the words after which a '/' starts a regular
// expression, not a division.
var jsRegexAfter = []string{"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
	"case", "do", "else", "yield", "await"}

// jsRestricted are the words a line break ends the statement after.
var jsRestricted = []string{"return", "throw", "break", "continue", "yield"}

// jsTok is a token and whether a line break came before it.
type jsTok struct {
	text string
	nl   bool
}

// jsKey returns a JavaScript or TypeScript file's tokens as prettier
// leaves them: whitespace dropped except a line break where it ends a
// statement (after return, throw, break, continue, yield; before ++ and
// --), a string by its value, numbers in lower case, no semicolon that
// ends a line where JavaScript would insert one, and no trailing comma.
func jsKey(src []byte) ([]string, bool) {
	var toks []jsTok
	prev := "" // the last token that is no comment
	nl := false
	for i := 0; i < len(src); {
		c := src[i]
		if c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' {
			nl = nl || c == '\n'
			i++
			continue
		}
		var t string
		comment := false
		switch {
		case bytes.HasPrefix(src[i:], []byte("//")):
			e := lineEnd(src, i)
			t, i, comment = commentKey(src[i:e]), e, true
		case bytes.HasPrefix(src[i:], []byte("/*")):
			e := len(src)
			if k := bytes.Index(src[i+2:], []byte("*/")); k >= 0 {
				e = i + 2 + k + 2
			}
			t, i, comment = commentKey(src[i:e]), e, true
		case c == '\'' || c == '"':
			e := quoteEnd(src, i, c)
			t, i = quotedKey("", src[i+1:max(e-1, i+1)], false), e
		case c == '`':
			e := templateEnd(src, i)
			t, i = string(src[i:e]), e
		case c == '/' && jsRegexStarts(prev):
			e := regexEnd(src, i)
			t, i = string(src[i:e]), e
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			e := numberEnd(src, i)
			t, i = strings.ToLower(string(src[i:e])), e
		case isWordByte(c) || c >= 0x80:
			e := wordEnd(src, i)
			t, i = string(src[i:e]), e
		default:
			t = longestOp(src, i, jsOps)
			i += len(t)
		}
		if nl && !comment && (slices.Contains(jsRestricted, prev) || t == "++" || t == "--") {
			toks = append(toks, jsTok{text: "\n"})
		}
		toks = append(toks, jsTok{text: t, nl: nl})
		nl = false
		if !comment {
			prev = t
		}
	}
	texts := make([]string, 0, len(toks))
	for _, t := range jsDropSemicolons(toks) {
		texts = append(texts, t.text)
	}
	return dropTrailingCommas(texts, func(string, bool, int) bool { return false }, func(string) bool { return false }), true
}

// jsDropSemicolons removes the semicolons JavaScript would insert itself:
// before a '}' or the end, and at a line's end when the next line starts
// what cannot continue the statement (a name, a literal, a block). One in
// parentheses (for (;;)) or after if (...), else or do (an empty
// statement) stays.
func jsDropSemicolons(toks []jsTok) []jsTok {
	var out []jsTok
	var stack []bool // per open bracket: it is a '{'
	header := -1     // the index in out of the ')' closing an if/for/while head
	var heads []bool // per open '(': it is such a head
	for i, t := range toks {
		switch t.text {
		case "(":
			heads = append(heads, len(out) > 0 && slices.Contains([]string{"if", "for", "while", "with"}, out[len(out)-1].text))
			stack = append(stack, false)
		case "[":
			stack = append(stack, false)
		case "{":
			stack = append(stack, true)
		case ")", "]", "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if t.text == ")" && len(heads) > 0 {
				if heads[len(heads)-1] {
					header = len(out)
				}
				heads = heads[:len(heads)-1]
			}
		case ";":
			inBlock := len(stack) == 0 || stack[len(stack)-1]
			afterHead := len(out) > 0 && (header == len(out)-1 || out[len(out)-1].text == "else" || out[len(out)-1].text == "do")
			if inBlock && !afterHead && jsInserted(toks[i+1:]) {
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// jsInserted reports whether JavaScript would end the statement before
// rest on its own: rest is empty or starts with '}', or starts on a new
// line with what cannot continue an expression.
func jsInserted(rest []jsTok) bool {
	for len(rest) > 0 && (strings.HasPrefix(rest[0].text, "//") || strings.HasPrefix(rest[0].text, "/*")) {
		rest = rest[1:] // a comment after the semicolon
	}
	if len(rest) == 0 || rest[0].text == "}" {
		return true
	}
	n := rest[0]
	if !n.nl {
		return false
	}
	switch n.text {
	case "{", "!", "~", "++", "--":
		return true
	case "in", "instanceof", "of", "as", "satisfies":
		return false
	}
	c := n.text[0]
	return isWordByte(c) || c >= 0x80 || c == '\'' || c == '"'
}

// jsRegexStarts reports whether a '/' after the token prev starts a
// regular expression literal.
func jsRegexStarts(prev string) bool {
	switch {
	case prev == "":
		return true
	case prev == ")" || prev == "]" || prev == "}":
		return false
	case slices.Contains(jsRegexAfter, prev):
		return true
	}
	c := prev[0]
	return !(isWordByte(c) || c >= 0x80 || c == '\'' || c == '"' || c == '`' || c == '/' && len(prev) > 1)
}

// regexEnd returns the index past the regular expression literal at i
// (its flags included), or the line's end when it is not closed.
func regexEnd(src []byte, i int) int {
	class := false
	for j := i + 1; j < len(src) && src[j] != '\n'; j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			return wordEnd(src, j+1)
		}
	}
	return lineEnd(src, i)
}

// templateEnd returns the index past the template literal at i, its
// ${...} substitutions (and templates in them) included.
func templateEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			return j + 1
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				depth := 0
				for j++; j < len(src); j++ {
					if src[j] == '`' {
						j = templateEnd(src, j) - 1
					} else if src[j] == '{' {
						depth++
					} else if src[j] == '}' {
						if depth--; depth == 0 {
							break
						}
					}
				}
			}
		}
	}
	return len(src)
}
