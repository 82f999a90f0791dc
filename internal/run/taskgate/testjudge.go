package taskgate

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"golang.org/x/mod/modfile"
)

// An agent task is judged by what the user's tests say, test by test,
// against the same tests on the task's base commit (gaterun.JudgeTests).
// The keeper keeps the book of reports by commit; a task grades its own.

// Reports is the run's book of test reports by commit: a task's baseline
// is usually the report of the task before it.
func (k *Keeper) Reports() *gaterun.Reports {
	if k.reports == nil {
		k.reports = gaterun.NewReports(k.dir())
	}
	return k.reports
}

// testRuns are the task's test gate runs on the base and apart from its
// own tests, each in a clean checkout of the task (checkoutFor), and
// their grader: against the run's known failures, a test of a group the
// task declared a test file of may vanish.
func (k *Keeper) testRuns(tk Task) gaterun.TestRuns {
	gr := gaterun.Grader{Baseline: k.State.Baseline, Reports: k.Reports(),
		Declared: gaterun.Declared(GoModule(k.Repo.Root), tk.T.Files), Changes: tk.T.ChangesTests}
	return gaterun.TestRuns{Gates: k.GateRun(), Grader: gr, Task: tk.T, Repo: k.Repo, Base: tk.Base, Changed: tk.Log.Files,
		Checkout: func(ctx context.Context, sha gitops.SHA, label string) (string, func(), error) {
			wt, err := k.checkoutFor(ctx, tk, sha, label)
			if err != nil {
				return "", nil, err
			}
			return wt.dir, func() { wt.Release(ctx) }, nil
		}}
}

// GoModule is the module path of root's go.mod, "" without one.
func GoModule(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}
