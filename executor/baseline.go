package executor

import (
	"context"
	"errors"
	"fmt"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstart"
	"github.com/planx-dev/planx/runstate"
)

// The baseline (planx run --baseline, `baseline: true` in .planx.yaml)
// runs the gates every task runs on the base before the first task, so
// that a suite already red is not blamed on the plan's first task. It runs
// before anything of the run is written (no rollback commit, run state or
// ref): a base that fails stops the run with the repository as it was,
// the gates' output under .git/planx/runs/<id>/ aside.

// baselineID names the baseline's gate output files (baseline-test.log)
// and its lines in the progress output.
const baselineID planparse.TaskID = "baseline"

// baselineOn says whether the run starts with a baseline: --baseline, else
// the config cfg; --accept-baseline-failures needs one.
func (o Options) baselineOn(cfg gates.Config) bool {
	switch {
	case o.AcceptBaselineFailures:
		return true
	case o.Baseline != nil:
		return *o.Baseline
	}
	return cfg.Baseline
}

// baselineGates are the gates every task runs (when: each, whatever a
// task's own selection), fixers aside: those rewrite files, they judge
// nothing.
func baselineGates(all []gates.Gate) []gates.Gate {
	var out []gates.Gate
	for _, g := range gates.Select(all, nil, false) {
		if !g.Fix {
			out = append(out, g)
		}
	}
	return out
}

// baseline runs the baseline gates on the base, in a clean checkout of it
// (a slot of the run, with the work tree's ignored entries linked as for
// an agent task's gates unless --clean-gates): the user's tree is not the
// gates' to touch before the rollback commit holds it. A gate that fails
// stops the run, unless --accept-baseline-failures and every failed gate
// named its failing tests: those are then the run's known failures.
func (r *runner) baseline(ctx context.Context, head gitops.Head) error {
	if !r.o.baselineOn(r.Config) {
		return nil
	}
	sel := baselineGates(r.Gates)
	if len(sel) == 0 {
		r.preChecks = append(r.preChecks, execlog.Check{Name: "baseline", OK: true, Detail: "no gate runs with every task: nothing to run"})
		return nil
	}
	base, err := r.baseCommit(ctx, head)
	if err != nil {
		return err
	}
	tu := &turn{r: r, t: &planparse.Task{ID: baselineID, Title: "baseline"}, lt: &execlog.Task{ID: string(baselineID)}, kind: planparse.KindShell}
	names := runstart.GateNames(sel)
	r.out.Println("planx: baseline: gate(s) %s on the base %s, before any task", names, base.Short())
	wt, err := tu.cleanAt(ctx, base, "baseline", r.o.GatesIn != GatesClean)
	if err != nil {
		dropRunWorktrees(r.repo)
		return err
	}
	err = r.runGateSet(ctx, tu.t, tu.lt, wt.dir, "", sel, nil)
	known, unnamed := gaterun.BaselineFailures(wt.dir, sel, tu.lt.Gates)
	wt.release(ctx)
	var fail *outcome.Failure
	switch {
	case err == nil:
		r.preChecks = append(r.preChecks, execlog.Check{Name: "baseline", OK: true, Detail: fmt.Sprintf("gate(s) %s passed on the base %s", names, base.Short())})
		r.out.Println("planx: baseline: passed")
		return nil
	case !errors.As(err, &fail):
		dropRunWorktrees(r.repo)
		return err
	case !r.o.AcceptBaselineFailures || len(unnamed) > 0:
		dropRunWorktrees(r.repo)
		return r.baselineFailed(fail, unnamed)
	}
	r.st.Baseline = &runstate.Baseline{Commit: base, Known: known}
	list := gaterun.KnownList(known)
	r.preChecks = append(r.preChecks, execlog.Check{Name: "baseline", OK: true,
		Detail: fmt.Sprintf("failing on the base %s, accepted (--accept-baseline-failures): %s", base.Short(), list)})
	r.out.RunWarn("baseline: the gates fail on the base; these failures are accepted as known (--accept-baseline-failures), and a task's gate that fails with them alone passes with a warning: " + list)
	return nil
}

// baseCommit is the base the first task starts from: HEAD and, when the
// work tree has uncommitted work, that work too (what the rollback commit
// will hold), as a commit no ref names.
func (r *runner) baseCommit(ctx context.Context, head gitops.Head) (gitops.SHA, error) {
	if r.survey != nil && len(r.survey.Changes) == 0 && head.SHA != "" {
		return head.SHA, nil
	}
	sha, err := r.repo.Snapshot(ctx, "planx: the base of run "+r.st.RunID+", for its baseline", head.SHA)
	if err != nil {
		return "", fmt.Errorf("baseline: %w", err)
	}
	return sha, nil
}

// baselineFailed is the error of a baseline that stops the run, said as a
// stopped task is: what failed, its output, where the rest is, what next.
func (r *runner) baselineFailed(fail *outcome.Failure, unnamed []execlog.Gate) error {
	next := fmt.Sprintf("nothing was changed; fix the failing tests first (a commit of their own), or run `planx run --accept-baseline-failures %s` to record them as known and judge each task against them",
		r.planRel)
	if len(unnamed) > 0 && r.o.AcceptBaselineFailures {
		g := unnamed[0]
		next = fmt.Sprintf("nothing was changed; gate %s failed on the base (exit %d) without naming the failing tests, or with a failure they do not account for (a build failure, a timeout), so --accept-baseline-failures cannot accept it test by test: fix the base first, or leave the gate out of this run (--gate '%s=true' overrides it, and the commits say so)",
			g.Name, g.ExitCode, g.Name)
	}
	r.out.TaskStopped(&planparse.Task{ID: baselineID, Title: "baseline"}, record.RunFailed, "baseline: "+fail.What, fail.Tail, fail.See, next)
	return fmt.Errorf("%w: baseline: the gates fail on the base, before any task ran: %s", ErrTaskFailed, fail.What)
}
