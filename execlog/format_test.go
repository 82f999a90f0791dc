package execlog

import (
	"testing"
	"time"
)

func TestFormatDuration(t *testing.T) {
	cases := map[time.Duration]string{
		0:                                    "0ms",
		-time.Second:                         "0ms",
		35*time.Millisecond + 400000:         "35ms",
		999 * time.Millisecond:               "999ms",
		1234 * time.Millisecond:              "1.2s",
		59960 * time.Millisecond:             "1m",
		2*time.Minute + 10*time.Second:       "2m10s",
		2*time.Minute + 400*time.Millisecond: "2m",
		time.Hour + 2*time.Minute:            "1h2m",
		3 * time.Hour:                        "3h",
		time.Hour + 5*time.Second:            "1h0m5s",
	}
	for d, want := range cases {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestFence(t *testing.T) {
	cases := map[string]string{
		"plain":          "```",
		"has ``` inside": "````",
		"````` and ``":   "``````",
		"`single` ticks": "```",
	}
	for body, want := range cases {
		if got := fence(body); got != want {
			t.Errorf("fence(%q) = %q, want %q", body, got, want)
		}
	}
}

func TestCode(t *testing.T) {
	cases := map[string]string{
		"go test ./...":      "`go test ./...`",
		"echo `date`":        "`` echo `date` ``",
		"a ``b`` c":          "```a ``b`` c```",
		"first line\nsecond": "`first line …`",
		"   ":                "",
	}
	for in, want := range cases {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanOutput(t *testing.T) {
	in := "\x1b[1;31mFAIL\x1b[0m pkg\r\nprogress 10%\rprogress 100%\n\x1b[2K\x1b[?25hdone"
	want := "FAIL pkg\nprogress 10%\nprogress 100%\ndone"
	if got := cleanOutput(in); got != want {
		t.Errorf("cleanOutput = %q, want %q", got, want)
	}
	if got := cleanOutput("lone \x1b escape"); got != "lone \x1b escape" {
		t.Errorf("cleanOutput dropped a lone escape: %q", got)
	}
}

func TestCell(t *testing.T) {
	if got := cell(" a | b\nc "); got != `a \| b c` {
		t.Errorf("cell = %q", got)
	}
}
