package taskgate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
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

// BaselineOn says whether the run starts with a baseline: flag
// (--baseline) when given, else configured (.planx.yaml); accept
// (--accept-baseline-failures) needs one.
func BaselineOn(flag *bool, accept, configured bool) bool {
	switch {
	case accept:
		return true
	case flag != nil:
		return *flag
	}
	return configured
}

// Base is where a baseline runs: the run's start.
type Base struct {
	Head gitops.Head
	// Clean: the work tree has no uncommitted work, so the base is HEAD.
	Clean bool
	// Ignored are the work tree's ignored entries, linked into the
	// baseline's checkout unless the gates run in a bare clean one.
	Ignored []string
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

// Baseline runs the baseline gates on the base, in a clean checkout of it
// (a slot of the run, with the work tree's ignored entries linked as for
// an agent task's gates unless --clean-gates): the user's tree is not the
// gates' to touch before the rollback commit holds it. A gate that fails
// stops the run, unless AcceptBaselineFailures and every failed gate
// named its failing tests: those are then the run's known failures, in
// State.Baseline. The baseline's line goes with the run's preflight checks.
func (k *Keeper) Baseline(ctx context.Context, at Base, checks *[]execlog.Check) error {
	if !k.BaselineOn {
		return nil
	}
	check := func(detail string) {
		*checks = append(*checks, execlog.Check{Name: "baseline", OK: true, Detail: detail})
	}
	sel := baselineGates(k.Gates)
	if len(sel) == 0 {
		check("no gate runs with every task: nothing to run")
		return nil
	}
	base, err := k.baseCommit(ctx, at)
	if err != nil {
		return err
	}
	t, lt := &planparse.Task{ID: baselineID, Title: "baseline"}, &execlog.Task{ID: string(baselineID)}
	var names []string
	for _, g := range sel {
		names = append(names, g.Name)
	}
	list := strings.Join(names, ", ")
	k.Out.Println("planx: baseline: gate(s) %s on the base %s, before any task", list, base.Short())
	wt, err := k.checkoutBase(ctx, t, base, at.Ignored)
	if err != nil {
		dropSlots(k.Repo)
		return err
	}
	err = k.runGateSet(ctx, t, lt, wt.dir, "", sel, nil)
	known, unnamed := gaterun.BaselineFailures(wt.dir, sel, lt.Gates)
	wt.Release(ctx)
	var fail *outcome.Failure
	switch {
	case err == nil:
		check(fmt.Sprintf("gate(s) %s passed on the base %s", list, base.Short()))
		k.Out.Println("planx: baseline: passed")
		return nil
	case !errors.As(err, &fail):
		dropSlots(k.Repo)
		return err
	case !k.AcceptBaselineFailures || len(unnamed) > 0:
		dropSlots(k.Repo)
		return k.baselineFailed(fail, unnamed)
	}
	k.State.Baseline = &runstate.Baseline{Commit: base, Known: known}
	accepted := gaterun.KnownList(known)
	check(fmt.Sprintf("failing on the base %s, accepted (--accept-baseline-failures): %s", base.Short(), accepted))
	k.Out.RunWarn("baseline: the gates fail on the base; these failures are accepted as known (--accept-baseline-failures), and a task's gate that fails with them alone passes with a warning: " + accepted)
	return nil
}

// dropSlots ends the linked work trees when the baseline stops the run,
// before anything of it is written: the pool's slots are cleaned, the
// work trees of runs that are over removed, and those of runs in progress
// in other work trees left alone (wave.DropRunWorktrees).
func dropSlots(repo *gitops.Repo) {
	wavepkg.DropRunWorktrees(repo, runstate.RunsElsewhere(repo))
}

// checkoutBase checks the base out for the baseline: with a link to each
// of the work tree's ignored entries (caches aside) and the checked-out
// submodules, as for an agent task's gates, unless the gates run in a
// bare clean checkout (--clean-gates).
func (k *Keeper) checkoutBase(ctx context.Context, t *planparse.Task, base gitops.SHA, ignored []string) (*Slot, error) {
	if k.GatesIn == GatesClean {
		return k.Checkout(ctx, t, base, "baseline", nil)
	}
	subs, _ := k.Repo.Index().Submodules(ctx)
	return k.Checkout(ctx, t, base, "baseline", append(gaterun.Linkable(ignored), subs...))
}

// baseCommit is the base the first task starts from: HEAD and, when the
// work tree has uncommitted work, that work too (what the rollback commit
// will hold), as a commit no ref names.
func (k *Keeper) baseCommit(ctx context.Context, at Base) (gitops.SHA, error) {
	if at.Clean && at.Head.SHA != "" {
		return at.Head.SHA, nil
	}
	sha, err := k.Repo.Commits().Snapshot(ctx, "planx: the base of run "+k.State.RunID+", for its baseline", at.Head.SHA)
	if err != nil {
		return "", fmt.Errorf("baseline: %w", err)
	}
	return sha, nil
}

// baselineFailed is the error of a baseline that stops the run, said as a
// stopped task is: what failed, its output, where the rest is, what next.
func (k *Keeper) baselineFailed(fail *outcome.Failure, unnamed []execlog.Gate) error {
	next := fmt.Sprintf("nothing was changed; fix the failing tests first (a commit of their own), or run `planx run --accept-baseline-failures %s` to record them as known and judge each task against them",
		k.PlanRel)
	if len(unnamed) > 0 && k.AcceptBaselineFailures {
		g := unnamed[0]
		next = fmt.Sprintf("nothing was changed; gate %s failed on the base (exit %d) without naming the failing tests, or with a failure they do not account for (a build failure, a timeout), so --accept-baseline-failures cannot accept it test by test: fix the base first, or leave the gate out of this run (--gate '%s=true' overrides it, and the commits say so)",
			g.Name, g.ExitCode, g.Name)
	}
	k.Out.TaskStopped(&planparse.Task{ID: baselineID, Title: "baseline"}, record.RunFailed, "baseline: "+fail.What, fail.Tail, fail.See, next)
	return fmt.Errorf("%w: baseline: the gates fail on the base, before any task ran: %s", record.ErrTaskFailed, fail.What)
}
