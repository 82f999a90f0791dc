package textsafe

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Shorten puts s on one line (runs of whitespace become one space) of at
// most limit characters (runes; at least 10). Longer text is cut at the last
// word boundary that keeps at least half the line, else between two
// characters, and ends with "…". It never splits a UTF-8 sequence, nor a
// character from the marks or joiners that follow it.
func Shorten(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	limit = max(limit, 10)
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	cut := limit - 1 // room for the "…"
	for cut > 0 && clings(r[cut-1], r[cut]) {
		cut--
	}
	if sp := lastSpace(r[:cut+1]); sp >= limit/2 {
		cut = sp
	}
	kept := strings.TrimRight(string(r[:cut]), " ,;:-–—")
	if kept == "" {
		kept = string(r[:cut])
	}
	return kept + "…"
}

// clings reports whether next must stay with prev: prev is a zero-width
// joiner; next is a combining mark, a variation selector, a skin tone or a
// joiner; or both are halves of a flag.
func clings(prev, next rune) bool {
	return prev == 0x200d || next == 0x200d ||
		unicode.Is(unicode.Mn, next) || unicode.Is(unicode.Me, next) ||
		(next >= 0xfe00 && next <= 0xfe0f) || (next >= 0x1f3fb && next <= 0x1f3ff) ||
		(regional(prev) && regional(next))
}

// regional reports a regional indicator: two of them draw one flag.
func regional(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }

// lastSpace is the index of the last space in r, -1 when there is none.
func lastSpace(r []rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == ' ' {
			return i
		}
	}
	return -1
}

// Indent puts prefix before every line of s; trailing newlines are dropped
// and none is added.
func Indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// Count is n and a regular noun, plural when n is not 1: "1 step", "2
// steps", "0 files".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// List joins paths for a message, naming at most 8 and counting the rest
// ("a, b and 3 more"): a message about 10,000 files stays one line.
func List(ps []string) string {
	if len(ps) > 8 {
		return strings.Join(ps[:8], ", ") + fmt.Sprintf(" and %d more", len(ps)-8)
	}
	return strings.Join(ps, ", ")
}
