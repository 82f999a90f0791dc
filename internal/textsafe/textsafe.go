package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line escapes s for a one-line field (a table cell, a progress line):
// newlines and tabs are escaped too.
func Line(s string) string { return escape(s, false) }

// Block escapes s for a multi-line block (a step's code): newlines and tabs
// are kept, everything else Line escapes is escaped.
func Block(s string) string { return escape(s, true) }

func escape(s string, keepLayout bool) string {
	if clean(s, keepLayout) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLayout && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// clean reports whether s needs no escaping (the common case, without
// allocating).
func clean(s string, keepLayout bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return false
		}
		if (r < 0x20 && !(keepLayout && (r == '\n' || r == '\t'))) || r == 0x7f || (r >= 0x80 && r < 0xa0) || hidden(r) {
			return false
		}
		i += n
	}
	return true
}

// hidden reports characters that change how surrounding text is drawn or
// are invisible: bidi embeddings, overrides and isolates (the "Trojan
// Source" characters, CVE-2021-42574), marks, zero-width characters, line
// and paragraph separators and the byte order mark.
func hidden(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
		r == 0x200e, r == 0x200f, r == 0x061c,
		r >= 0x200b && r <= 0x200d, r == 0x2060,
		r == 0x2028, r == 0x2029, r == 0xfeff:
		return true
	}
	return false
}
