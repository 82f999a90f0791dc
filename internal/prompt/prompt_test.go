package prompt

import (
	"strings"
	"testing"
)

func TestYesNo(t *testing.T) {
	for answer, want := range map[string]bool{
		"y\n": true, "YES\n": true, " yes \r\n": true, "y": true,
		"n\n": false, "\n": false, "": false, "yep\n": false, "no\n": false,
	} {
		var out strings.Builder
		if got := YesNo(strings.NewReader(answer), &out, "Go on? [y/N] "); got != want {
			t.Errorf("answer %q: %v, want %v", answer, got, want)
		}
		if out.String() != "Go on? [y/N] " {
			t.Errorf("question written as %q", out.String())
		}
	}
}
