package executor

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/runstate"
	"golang.org/x/mod/modfile"
)

// An agent task is judged by what the user's tests say, test by test,
// against the same tests on the task's base commit (gaterun.JudgeTests).
// The runner keeps the book of reports by commit; a turn grades its own.

// reports is the run's book of test reports by commit: a task's baseline
// is usually the report of the task before it.
func (r *runner) reports() *gaterun.Reports {
	if r.testReports == nil {
		r.testReports = gaterun.NewReports(runstate.RunDir(r.repo, r.st.RunID))
	}
	return r.testReports
}

// testRuns are the turn's test gate runs on the base and apart from its
// own tests, each in a clean checkout of the turn (tu.checkout), and
// their grader: against the run's known failures, a test of a group the
// task declared a test file of may vanish.
func (tu *turn) testRuns() gaterun.TestRuns {
	gr := gaterun.Grader{Baseline: tu.r.st.Baseline, Reports: tu.r.reports(),
		Declared: gaterun.DeclaredGroup(goModule(tu.r.repo.Root), tu.t.Files)}
	return gaterun.TestRuns{Gates: tu.r.gateRun(), Grader: gr, Task: tu.t, Repo: tu.r.repo, Base: tu.r.expect,
		Checkout: func(ctx context.Context, sha gitops.SHA, label string) (string, func(), error) {
			wt, err := tu.checkout(ctx, sha, label)
			if err != nil {
				return "", nil, err
			}
			return wt.dir, func() { wt.release(ctx) }, nil
		}}
}

// goModule is the module path of root's go.mod, "" without one.
func goModule(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}
