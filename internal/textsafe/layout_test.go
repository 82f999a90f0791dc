package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShorten(t *testing.T) {
	long := "Add one file with a really rather long title that goes on and on past the seventy two column limit"
	cases := []struct {
		in    string
		limit int
		want  string
	}{
		{"short  title\n with\tspace", 72, "short title with space"},
		{long, 70, "Add one file with a really rather long title that goes on and on past…"},
		{long, 40, "Add one file with a really rather long…"},
		// Exactly at the limit: kept whole.
		{"abcdefghij klmnop", 17, "abcdefghij klmnop"},
		// Cut at a space: the comma before it goes, not the word.
		{"Refactor parser, lexer and printer together", 24, "Refactor parser, lexer…"},
		{"Refactor parser, lexer and printer together", 18, "Refactor parser…"},
		// One very long word: no boundary to keep half the line, so the cut is between characters.
		{"Update " + strings.Repeat("x", 80), 20, "Update xxxxxxxxxxxx…"},
		{strings.Repeat("y", 30), 12, "yyyyyyyyyyy…"},
		// CJK has no spaces: cut between characters, never inside one.
		{"実行計画のタスクを順番に実行して検証しコミットする", 12, "実行計画のタスクを順番…"},
		// An emoji with a skin tone and a ZWJ family stay whole.
		{"ok👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽", 10, "ok👍🏽👍🏽👍🏽…"},
		{"family👩‍👩‍👧 and more text", 10, "family…"},
		{"abcdefgh🇫🇷🇫🇷x", 10, "abcdefgh…"},
		// A combining accent stays with its letter.
		{"abcdefghe\u0301z", 10, "abcdefgh…"},
		// Below 10 the limit is 10.
		{"one two three four", 3, "one two…"},
	}
	for _, c := range cases {
		got := Shorten(c.in, c.limit)
		if got != c.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > max(c.limit, 10) {
			t.Errorf("Shorten(%q, %d) = %q: invalid or over the limit", c.in, c.limit, got)
		}
	}
}

func TestIndent(t *testing.T) {
	if got := Indent("a\n\nb\n\n", "  "); got != "  a\n  \n  b" {
		t.Errorf("Indent = %q", got)
	}
	if got := Indent("", "> "); got != "> " {
		t.Errorf("Indent of empty = %q", got)
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 files", 1: "1 file", 2: "2 files", 21: "21 files"} {
		if got := Count(n, "file"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestList(t *testing.T) {
	if got := List([]string{"a", "b"}); got != "a, b" {
		t.Errorf("List of 2 = %q", got)
	}
	ten := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}
	if got := List(ten); got != "1, 2, 3, 4, 5, 6, 7, 8 and 2 more" {
		t.Errorf("List of 10 = %q", got)
	}
}
