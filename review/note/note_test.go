package note

import (
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
)

func TestFormatForParse(t *testing.T) {
	gs := []execlog.Gate{
		{Name: "test", Command: "go test ./...", Passed: true, Duration: 12 * time.Millisecond},
		{Name: "lint", Command: "golint", Passed: false, ExitCode: 2, Duration: time.Millisecond},
	}
	b := FormatFor(Meta{Task: "T003", Commit: "c0ffee", Tree: "7ree"}, gs, map[string]string{"test": "ok\n"})
	want := "planx gate output of T003\nCommit: c0ffee\nTree: 7ree\n\n" +
		"== gate test: pass (exit 0, 12ms)\n$ go test ./...\nok\n\n" +
		"== gate lint: fail (exit 2, 1ms)\n$ golint\n"
	if string(b) != want {
		t.Fatalf("FormatFor =\n%s\nwant\n%s", b, want)
	}
	p, ok := Parse(b)
	if !ok || p.Task != "T003" || p.Commit != "c0ffee" || p.Tree != "7ree" || p.Verdicts["test"] != "pass" || p.Verdicts["lint"] != "fail" {
		t.Errorf("Parse = %+v, %v", p, ok)
	}
	// Without Commit and Tree lines (an older planx, or a hand-written note).
	p, ok = Parse(Format("T001", gs[:1], nil))
	if !ok || p.Commit != "" || p.Tree != "" || p.Verdicts["test"] != "pass" {
		t.Errorf("Parse(old) = %+v, %v", p, ok)
	}
	if _, ok := Parse([]byte("some other note\n")); ok {
		t.Error("a note that is not planx's parsed")
	}
}
