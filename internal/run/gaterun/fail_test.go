package gaterun

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
)

func TestGateFailureNamesTestsPathAndCommand(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, ".git", "planx", "runs", "r1", "T002-test.log")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "--- FAIL: TestSub (0.00s)\n    sub_test.go:7: bad\nFAIL\nFAIL\tcalc\t0.003s\nFAIL\n"
	if err := os.WriteFile(out, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	results := []gates.Result{{Name: "vet", Passed: true}, {Name: "test", Command: "go test ./...", ExitCode: 1, Tail: body, OutputPath: out}}
	var f *outcome.Failure
	if !errors.As(gateFailure(root, results), &f) {
		t.Fatal("no failure")
	}
	if f.What != "gate test failed (exit 1): TestSub (calc) fails" || f.Tail != body {
		t.Errorf("what %q tail %q", f.What, f.Tail)
	}
	want := []string{"whole output: .git/planx/runs/r1/T002-test.log", "run it again at the repository root: go test ./..."}
	if !slices.Equal(f.See, want) {
		t.Errorf("see %q, want %q", f.See, want)
	}

	// No test named: the first lines that look like a failure, which the
	// tail no longer holds.
	if err := os.WriteFile(out, []byte("compiling\nerror: x is undefined\nmore\nlast line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	results[1].Tail = "last line\n"
	if !errors.As(gateFailure(root, results), &f) {
		t.Fatal("no failure")
	}
	if f.What != "gate test failed (exit 1)" || len(f.See) != 4 || f.See[1] != "│ error: x is undefined" {
		t.Errorf("what %q see %q", f.What, f.See)
	}
	if gateFailure(root, results[:1]) != nil {
		t.Error("a passing gate failed")
	}
}

func TestFailingNames(t *testing.T) {
	if got := failingNames(nil); got != "" {
		t.Error(got)
	}
}
