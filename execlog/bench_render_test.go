package execlog

import (
	"fmt"
	"github.com/planx-dev/planx/internal/record"
	"strings"
	"testing"
	"time"
)

// benchLog is a finished 100-task run as the executor leaves it: each task
// done with its commit, a few files, two steps and two gates; every tenth
// task needed a second attempt whose first failure left an issue.
func benchLog(n int) *Log {
	start := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	l := &Log{
		Path:        "memory-bank/execute/2026-11-21_10-00-00_bench.md",
		Title:       "Benchmark plan",
		Topic:       "bench",
		PlanPath:    "memory-bank/plan/bench.md",
		RunID:       "20261121-100000-a1b2c3",
		StartCommit: "0123456789abcdef0123456789abcdef01234567",
		Branch:      "main",
		Started:     start,
		Finished:    start.Add(time.Duration(n) * 30 * time.Second),
		Status:      record.RunCompleted,
		Preflight: []Check{
			{Name: "no merge, rebase, cherry-pick or bisect in progress", OK: true},
			{Name: "HEAD on a branch", OK: true, Detail: "main"},
			{Name: "work tree", OK: true, Detail: "0 uncommitted path(s) go into the rollback commit"},
			{Name: "plan validates", OK: true, Detail: fmt.Sprintf("memory-bank/plan/bench.md, %d task(s), format native", n)},
			{Name: "gates", OK: true, Detail: "test, vet"},
			{Name: "rollback commit", OK: true, Detail: "0123456789abcdef0123456789abcdef01234567"},
		},
	}
	for i := 1; i <= n; i++ {
		ts := start.Add(time.Duration(i-1) * 30 * time.Second)
		t := Task{
			ID: fmt.Sprintf("T%03d", i), Title: fmt.Sprintf("Implement part %d of the feature | with a pipe", i),
			Status: record.TaskDone, Executor: "shell", Commit: fmt.Sprintf("%040x", i*7919),
			Files: []string{
				fmt.Sprintf("pkg/p%d/file.go", i), fmt.Sprintf("pkg/p%d/file_test.go", i), "docs/feature.md",
			},
			Commands: []Command{
				{Name: "step 1/2", Command: fmt.Sprintf("mkdir -p pkg/p%d && go generate ./pkg/p%d", i, i), Duration: 1200 * time.Millisecond, Tail: "generated\n"},
				{Name: "step 2/2", Command: "gofmt -w pkg", Duration: 300 * time.Millisecond},
			},
			Gates: []Gate{
				{Name: "test", Command: "go test ./pkg/...", Passed: true, Duration: 20 * time.Second, Tail: strings.Repeat("ok  \tpkg\t0.01s\n", 20)},
				{Name: "vet", Command: "go vet ./...", Passed: true, Duration: 3 * time.Second},
			},
			Started:  ts,
			Finished: ts.Add(25 * time.Second),
			Attempts: 1,
		}
		if i%10 == 0 {
			t.Attempts = 2
			l.Issues = append(l.Issues, Issue{Task: t.ID, What: "attempt 1 failed: gate test failed (exit 1)", Resolution: "passed on attempt 2", Time: ts.Add(10 * time.Second)})
		}
		l.Tasks = append(l.Tasks, t)
	}
	return l
}

// BenchmarkRender renders a finished 100-task log, as the executor does
// several times per task (before each phase and before the commit).
func BenchmarkRender(b *testing.B) {
	l := benchLog(100)
	size := len(l.Render())
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		l.Render()
	}
	b.ReportMetric(float64(size), "bytes/log")
}

// BenchmarkWriteFile is Render plus the atomic write (temp file, fsync,
// rename) that puts the log in the work tree.
func BenchmarkWriteFile(b *testing.B) {
	l := benchLog(100)
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		if err := l.WriteFile(dir); err != nil {
			b.Fatal(err)
		}
	}
}
