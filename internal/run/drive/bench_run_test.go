package drive_test

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/drive"
)

// BenchmarkRunShellTasks is the whole per-task path in process: a run of 5
// shell tasks (no gates, no hooks), each appending to one file of a
// 200-file repository, from the rollback commit to the last task commit.
// Git's own work is included; profile with -cpuprofile to see planx's share.
// bench/run.sh compares the same path against a plain git loop.
func BenchmarkRunShellTasks(b *testing.B) {
	const tasks, files = 5, 200
	gittest.Setenv(b)
	dir := gittest.Init(b)
	for i := range files {
		gittest.WriteFile(b, dir, fmt.Sprintf("d%d/f%03d.txt", i/100, i), strings.Repeat(fmt.Sprintf("line of file %d\n", i), 300))
	}
	var plan strings.Builder
	plan.WriteString("---\ntopic: bench\n---\n# Bench\n\n")
	for t := 1; t <= tasks; t++ {
		fmt.Fprintf(&plan, "### [ ] T%03d: Append to file %d\n\n```sh run\necho \"$PLANX_RUN_ID\" >> d%d/f%03d.txt\n```\n\n", t, t*37, t*37/100, t*37)
	}
	gittest.WriteFile(b, dir, "plan.md", plan.String())
	gittest.Commit(b, dir, "initial")
	ctx := context.Background()
	opts := drive.Options{PlanPath: filepath.Join(dir, "plan.md"), Output: progress.Output{Out: io.Discard}}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		// The previous run ticked every task: put the plan back, committed.
		gittest.WriteFile(b, dir, "plan.md", plan.String())
		gittest.Commit(b, dir, "bench: reset the plan")
		b.StartTimer()
		res, err := drive.Run(ctx, opts)
		if err != nil || len(res.Done) != tasks {
			b.Fatalf("run: %v (%d of %d tasks done)", err, len(res.Done), tasks)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/tasks, "ms/task")
}
