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
