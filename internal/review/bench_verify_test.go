package review

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/drive"
)

// benchRun makes a repository holding one real planx run of n tasks (the
// executor's own commits, with one gate each) and returns it opened.
func benchRun(b *testing.B, n int) *gitops.Repo {
	return benchRunGate(b, n, `"true"`)
}

// benchRunGate is benchRun with the gate command given (YAML).
func benchRunGate(b *testing.B, n int, gate string) *gitops.Repo {
	b.Helper()
	gittest.Setenv(b)
	dir := gittest.Init(b)
	var plan strings.Builder
	plan.WriteString("---\ntopic: bench\ngates:\n  - name: check\n    command: " + gate + "\n---\n# Bench\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&plan, "### [ ] T%03d: Add file %d\n\n", i, i)
		if i > 1 {
			fmt.Fprintf(&plan, "Depends on: T%03d\n", i-1)
		}
		fmt.Fprintf(&plan, "Files: f/%03d.txt\n\n```sh run\nmkdir -p f && echo %d > f/%03d.txt\n```\n\n", i, i, i)
	}
	gittest.WriteFile(b, dir, "README", "bench\n")
	gittest.WriteFile(b, dir, "plan.md", plan.String())
	gittest.Commit(b, dir, "initial")
	ctx := context.Background()
	res, err := drive.Run(ctx, drive.Options{PlanPath: filepath.Join(dir, "plan.md"), Output: progress.Output{Out: io.Discard}})
	if err != nil || len(res.Done) != n {
		b.Fatalf("run: %v (%d of %d tasks done)", err, len(res.Done), n)
	}
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	return repo
}

// BenchmarkVerify50 is `planx verify` on a clean 50-task run: read the run
// from history, then check every task commit (trailers, gates, task hash
// against the plan at the tip, dependency order, changes).
func BenchmarkVerify50(b *testing.B) {
	repo := benchRun(b, 50)
	ctx := context.Background()
	rep, err := Verify(ctx, repo, Options{})
	if err != nil || !rep.OK || len(rep.Runs) != 1 || len(rep.Runs[0].Tasks) != 50 {
		b.Fatalf("Verify: %v; findings %s", err, kinds(rep))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(ctx, repo, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLatest50 is the history walk alone, as `planx log` and `status`
// do it: find the most recent run and group its commits.
func BenchmarkLatest50(b *testing.B) {
	repo := benchRun(b, 50)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		run, err := Latest(ctx, repo, "", "")
		if err != nil || run == nil || len(run.Tasks) != 50 {
			b.Fatalf("Latest: %v %+v", err, run)
		}
	}
}

// BenchmarkVerifyRerunAll50 is `planx verify --rerun-gates=all` on a
// 50-task run planx made here: every tree has a passing record of the gate,
// so no gate runs (the gate counts its runs in a file; the count must not
// move) and no worktree is made.
func BenchmarkVerifyRerunAll50(b *testing.B) {
	counter := filepath.Join(b.TempDir(), "gate-runs")
	repo := benchRunGate(b, 50, `"echo x >> `+counter+`"`)
	runs := func() int {
		data, err := os.ReadFile(counter)
		if err != nil {
			b.Fatal(err)
		}
		return strings.Count(string(data), "x")
	}
	before := runs()
	if before != 50 {
		b.Fatalf("the run ran the gate %d times, want 50", before)
	}
	ctx := context.Background()
	opts := Options{Rerun: RerunAll, TrustBranchConfig: true}
	rep, err := Verify(ctx, repo, opts)
	if err != nil || !rep.OK || len(rep.Gates) != 50 {
		b.Fatalf("Verify: %v; %d gates; findings %s", err, len(rep.Gates), kinds(rep))
	}
	for _, g := range rep.Gates {
		if !g.Cached {
			b.Fatalf("gate %s of %s ran", g.Name, g.Task)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(ctx, repo, opts); err != nil {
			b.Fatal(err)
		}
	}
	if n := runs(); n != before {
		b.Fatalf("verify ran the gate %d times", n-before)
	}
}
