package execlog

import (
	"bytes"
	"flag"
	"github.com/planx-dev/planx/internal/record"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.md from the current output")

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// sampleLog is a representative failed run: two tasks done, the third
// failed at a gate whose output contains a markdown fence, and one task
// never reached.
func sampleLog() *Log {
	return &Log{
		Path:        "memory-bank/execute/2026-11-21_10-00-00_greeting-tool.md",
		Title:       "Greeting tool",
		Topic:       "greeting-tool",
		PlanPath:    "memory-bank/plan/greeting-tool.md",
		RunID:       "20261121-100000-a1b2c3",
		StartCommit: "0123456789abcdef0123456789abcdef01234567",
		Branch:      "main",
		Started:     t0,
		Finished:    t0.Add(95*time.Second + 400*time.Millisecond),
		Status:      record.RunFailed,
		Preflight: []Check{
			{Name: "inside a git work tree", OK: true},
			{Name: "HEAD on a branch", OK: true, Detail: "main"},
			{Name: "work tree clean", OK: false, Detail: "2 uncommitted files snapshotted in the rollback commit"},
		},
		Tasks: []Task{
			{
				ID: "T001", Title: "Write the greeting script", Status: record.TaskDone, Executor: "shell",
				Commit: "fedcba9876543210fedcba9876543210fedcba98",
				Files:  []string{"greet.sh"},
				Commands: []Command{
					{Name: "step 1", Command: "printf '#!/bin/sh\\necho hi\\n' > greet.sh\nchmod +x greet.sh", ExitCode: 0, Duration: 12 * time.Millisecond},
				},
				Gates: []Gate{
					{Name: "test", Command: "sh run-tests.sh ./...", Passed: true, Duration: 1234 * time.Millisecond},
					{Name: "lint", Command: "shellcheck *.sh | tee lint.txt", Passed: true, Duration: 35 * time.Millisecond},
				},
				Started: t0.Add(time.Second), Finished: t0.Add(3 * time.Second), Attempts: 1,
			},
			{
				ID: "T002", Label: "1.2", Title: "Test the greeting", Status: record.TaskDone, Executor: "agent",
				Commit: "aaaabbbbccccddddeeeeffff0000111122223333",
				Files:  []string{"greet_test.sh", "run-tests.sh"},
				Commands: []Command{
					{Name: "agent", Command: "claude -p", ExitCode: 0, Duration: 61*time.Second + 700*time.Millisecond},
				},
				Gates: []Gate{
					{Name: "test", Command: "sh run-tests.sh ./...", Passed: true, Duration: 2 * time.Second},
				},
				Started: t0.Add(3 * time.Second), Finished: t0.Add(70 * time.Second), Attempts: 2,
			},
			{
				ID: "T003", Title: "Greet in `French`", Status: record.TaskFailed, Executor: "shell",
				Files: []string{"greet.sh"},
				Commands: []Command{
					{Name: "step 1", Command: "sed -i 's/hi/salut/' greet.sh", ExitCode: 0, Duration: 8 * time.Millisecond},
				},
				Gates: []Gate{
					{Name: "test", Command: "sh run-tests.sh ./...", Passed: false, ExitCode: 1, Duration: 900 * time.Millisecond,
						Tail:       "--- FAIL: greeting\nwant:\n```\nhi\n```\ngot:\n\x1b[31msalut\x1b[0m\n",
						OutputPath: ".git/planx/runs/20261121-100000-a1b2c3/T003-test.log"},
					{Name: "lint", Command: "shellcheck *.sh | tee lint.txt", Passed: true, Duration: 40 * time.Millisecond},
				},
				Started: t0.Add(70 * time.Second), Finished: t0.Add(95 * time.Second), Attempts: 1,
				Failure: "gate test failed (exit 1): greeting fails\n\n--- FAIL: greeting\nwant:\n```\nhi\n```\ngot:\n\x1b[31msalut\x1b[0m\n",
			},
			{ID: "T004", Title: "Document it", Status: record.TaskPending},
		},
		Issues: []Issue{
			{Task: "T002", What: "agent left greet_test.sh unformatted on the first attempt", Resolution: "re-run; passed on attempt 2", Time: t0.Add(40 * time.Second)},
			{Task: "T003", What: "gate test failed", Time: t0.Add(95 * time.Second)},
		},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden.md")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Render differs from %s (go test ./execlog -update rewrites it); got:\n%s", path, got)
	}
}

func TestRenderGolden(t *testing.T) {
	l := sampleLog()
	got := l.Render()
	golden(t, "failed-run", got)
	if !bytes.Equal(got, l.Render()) {
		t.Error("Render is not deterministic")
	}
}

// TestRenderAsCommittedWithT002 renders the log as it goes into T002's own
// commit: T002 cannot know its SHA yet, the run is still going.
func TestRenderAsCommittedWithT002(t *testing.T) {
	l := sampleLog()
	l.Status, l.Finished = record.RunRunning, time.Time{}
	l.Tasks[1].Commit = ""
	l.Tasks[2] = Task{ID: "T003", Title: "Greet in French", Status: record.TaskPending}
	l.Issues = l.Issues[:1]
	got := string(l.Render())
	golden(t, "running", []byte(got))
	for _, want := range []string{"| 1.2 (T002) | done | this commit |", "- **Commit:** this commit", "status: \"running\"", "- **Next step:** the run is in progress."} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(got, "### T003") || strings.Contains(got, "**Duration:**") {
		t.Error("pending task has a section, or a running log shows a duration")
	}
}

func TestRenderFenceLongerThanOutput(t *testing.T) {
	l := &Log{Title: "x", Status: record.RunFailed, Tasks: []Task{{
		ID: "T001", Title: "t", Status: record.TaskFailed,
		Commands: []Command{{Name: "step 1", Command: "x", ExitCode: 2, Tail: "a\n`````\nb"}},
	}}}
	got := string(l.Render())
	if !strings.Contains(got, "\n``````text\na\n`````\nb\n``````\n") {
		t.Errorf("tail with a 5-backtick run is not fenced with 6:\n%s", got)
	}
}

// A gate let pass with the baseline's known failures says so in the task's
// table and the gate matrix: it did not simply pass.
func TestRenderKnownFailures(t *testing.T) {
	l := &Log{Title: "x", Status: record.RunCompleted, Tasks: []Task{{
		ID: "T001", Title: "t", Status: record.TaskDone,
		Gates: []Gate{{Name: "test", Command: "go test ./...", Passed: true, ExitCode: 1, Known: []string{"calc TestSub"}},
			{Name: "vet", Command: "go vet ./...", Passed: true}},
	}}}
	got := string(l.Render())
	if !strings.Contains(got, "| test | PASS (known failures) | 1 |") || !strings.Contains(got, "| vet | PASS | 0 |") ||
		!strings.Contains(got, "| T001 | PASS (known failures) ") {
		t.Errorf("known failures not said:\n%s", got)
	}
}
