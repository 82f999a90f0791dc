package linediff

import "testing"

func TestLines(t *testing.T) {
	got := Lines("- [x] T001 Add a\r\n  echo a > a.txt  \r\n", "- [x] T001 Add a\n  echo A > a.txt\n")
	want := " - [x] T001 Add a\n-  echo a > a.txt\n+  echo A > a.txt\n"
	if got != want {
		t.Fatalf("Lines:\n%q\nwant:\n%q", got, want)
	}
	if got, want := Lines("a\nb \r\nc\n", "a\nB\nc\nd"), " a\n-b\n+B\n c\n+d\n"; got != want {
		t.Fatalf("Lines = %q, want %q", got, want)
	}
	if got := Lines("same\n", "same"); got != " same\n" {
		t.Fatalf("equal texts: %q", got)
	}
}
