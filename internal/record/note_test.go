package record

import (
	"testing"
	"time"
)

// The note is read by people (git notes show) and by planx show: one
// section per gate, whole output when planx had it, else the log's tail
// marked as such; a timed-out gate says so.
func TestNote(t *testing.T) {
	got := string(Note("T003", []GateOutput{
		{Name: "test", Command: "go test ./...", Passed: true, Duration: 12 * time.Millisecond, Output: "ok  x 0.1s", Whole: true},
		{Name: "lint", Command: "golangci-lint run", ExitCode: -1, Duration: 2 * time.Second, TimedOut: true, Output: "a\nb\n"},
		{Name: "empty", Passed: true},
	}))
	want := "planx gate output of T003\n\n" +
		"== gate test: pass (exit 0, 12ms)\n$ go test ./...\nok  x 0.1s\n\n" +
		"== gate lint: fail (exit -1, 2000ms, timed out)\n$ golangci-lint run\n(last lines only)\na\nb\n\n" +
		"== gate empty: pass (exit 0, 0ms)\n"
	if got != want {
		t.Errorf("note:\n%s\nwant:\n%s", got, want)
	}
}

func TestNoteForParse(t *testing.T) {
	gs := []GateOutput{
		{Name: "test", Command: "go test ./...", Passed: true, Duration: 12 * time.Millisecond, Output: "ok\n== gate test: fail (forged)\n", Whole: true},
		{Name: "lint", Command: "golint", ExitCode: 2, Duration: time.Millisecond, Whole: true},
	}
	b := NoteFor(NoteMeta{Task: "T003", Commit: "c0ffee", Tree: "7ree"}, gs)
	want := "planx gate output of T003\nCommit: c0ffee\nTree: 7ree\n\n" +
		"== gate test: pass (exit 0, 12ms)\n$ go test ./...\nok\n== gate test: fail (forged)\n\n" +
		"== gate lint: fail (exit 2, 1ms)\n$ golint\n"
	if string(b) != want {
		t.Fatalf("NoteFor =\n%s\nwant\n%s", b, want)
	}
	p, ok := ParseNote(b)
	if !ok || p.Task != "T003" || p.Commit != "c0ffee" || p.Tree != "7ree" || p.Verdicts["test"] != "pass" || p.Verdicts["lint"] != "fail" {
		t.Errorf("ParseNote = %+v, %v", p, ok)
	}
	// Without Commit and Tree lines (an older planx, or a hand-written note).
	p, ok = ParseNote(Note("T001", gs[:1]))
	if !ok || p.Commit != "" || p.Tree != "" || p.Verdicts["test"] != "pass" {
		t.Errorf("ParseNote(old) = %+v, %v", p, ok)
	}
	if _, ok := ParseNote([]byte("some other note\n")); ok {
		t.Error("a note that is not planx's parsed")
	}
}
