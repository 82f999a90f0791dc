package textsafe

import "testing"

func TestLineAndBlock(t *testing.T) {
	cases := []struct{ in, line, block string }{
		{"make build", "make build", "make build"},
		{"rm -rf ~\rmake build", `rm -rf ~\rmake build`, `rm -rf ~\rmake build`},
		{"\x1b[2K\x1b[1Amake", `\x1b[2K\x1b[1Amake`, `\x1b[2K\x1b[1Amake`},
		{"a\nb\tc", `a\nb\tc`, "a\nb\tc"},
		{"echo \u202eevil\u202c", `echo \u202eevil\u202c`, `echo \u202eevil\u202c`},
		{"zero\u200bwidth\ufeff", `zero\u200bwidth\ufeff`, `zero\u200bwidth\ufeff`},
		{"bad \xff byte", `bad \xff byte`, `bad \xff byte`},
		{"c1 \u009b31m", `c1 \x9b31m`, `c1 \x9b31m`},
		{"déjà vu — ok", "déjà vu — ok", "déjà vu — ok"},
		{"bell\a del\x7f", `bell\x07 del\x7f`, `bell\x07 del\x7f`},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := Block(c.in); got != c.block {
			t.Errorf("Block(%q) = %q, want %q", c.in, got, c.block)
		}
	}
}
