package admit

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/internal/run/runstart"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// PreflightChecks are what the preflight checks of a run of setup's plan
// (at planRel) as o asks.
func PreflightChecks(o Options, setup *runplan.Setup, planRel, reaperNote string) runstart.Checks {
	return runstart.Checks{AllowDetached: o.AllowDetached, RequireClean: o.RequireClean, AllowUntrackedSecrets: o.AllowUntrackedSecrets,
		Plan: setup.Plan, PlanRel: planRel, Gates: setup.Gates, ReaperNote: reaperNote}
}

// RefuseStoppedRun refuses a new run while the last one stopped part-way:
// its state is what resume, skip and abort recover from, and a new run
// would overwrite it.
func RefuseStoppedRun(repo *gitops.Repo) error {
	prev, err := runstate.Load(repo)
	if err != nil {
		return err
	}
	if prev != nil && prev.Status != record.RunCompleted {
		return fmt.Errorf("%w: a run of %s stopped at %s (%s); continue it with `planx resume`, see it with `planx status`",
			runstate.ErrRunInProgress, prev.PlanPath, prev.Current, prev.Status)
	}
	return nil
}

// RecordStart is what the run's records start from (a dry run checks it too).
func RecordStart(o Options, jobs int, setup *runplan.Setup, planRel string, pinned *runstate.Pinned, head gitops.Head, tasks []*planparse.Task) runstart.Start {
	return runstart.Start{
		Started: o.NowUTC(), LogDir: cmp.Or(o.LogDir, setup.Config.LogDir, "memory-bank/execute"),
		Plan: setup.Plan, PlanRel: planRel, Pinned: pinned, Head: head, Tasks: tasks,
		Options: runstate.SavedOptions{All: o.All, NoVerify: o.NoVerify, StepTimeout: o.StepTimeout,
			TaskTimeout: o.TaskTimeout, FlagGates: o.Gates, Format: string(o.Format),
			Agent: o.Agent, Attempts: o.Attempts, StrictFiles: o.StrictFiles, GatesIn: o.GatesIn,
			Optional: o.Optional, Topic: o.Topic, Jobs: jobs},
	}
}

// RefuseMisread refuses, before anything changes, a plan the run would
// misread (runplan.RefuseUnrunnable) and a review gate whose reviewer is
// the agent that does the tasks (runplan.RefuseSameReviewer).
func RefuseMisread(setup *runplan.Setup, planRel string, run []*planparse.Task) error {
	if err := setup.RefuseUnrunnable(planRel, run); err != nil {
		return err
	}
	return setup.RefuseSameReviewer()
}

// checkHiddenRef exports ref of the repository at dir once, to a scratch
// directory, to know before anything changes that it can be.
func checkHiddenRef(ctx context.Context, dir, ref string) error {
	tmp, err := os.MkdirTemp("", "planx-hidden-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	files, err := gitops.ExportTree(ctx, dir, ref, tmp)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("hidden_tests: %s of %s holds no file", ref, dir)
	}
	return err
}

// HiddenDir is the hidden tests' directory (cfg's hidden_tests:), checked
// where the run (or its resume) starts in repo: outside the repository,
// there, and when it names a ref of a repository, that ref's files
// readable.
func HiddenDir(ctx context.Context, cfg gates.Config, repo *gitops.Repo) (string, error) {
	dir, err := cfg.HiddenDir(repo.Root, repo.CommonDir)
	if err == nil && dir != "" && cfg.HiddenRef != "" {
		err = checkHiddenRef(ctx, dir, cfg.HiddenRef)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %v", planparse.ErrInvalid, err)
	}
	return dir, nil
}

// CheckAgents refuses, before the rollback commit, a run of setup's tasks
// in the work tree root whose agent tasks could not start under jail, or
// whose reviewer (review:) could not (execute.CheckAgent).
func CheckAgents(setup *runplan.Setup, root string, jail *execute.Jail, tasks []*planparse.Task) error {
	if !slices.ContainsFunc(tasks, func(t *planparse.Task) bool { return setup.Executor(t) == planparse.KindAgent }) {
		return nil
	}
	if err := execute.CheckAgent(setup.AgentSpec(), root, jail); err != nil {
		return err
	}
	if rv := setup.Config.Review; rv.On() {
		if err := execute.CheckAgent(rv.Agent, root, jail); err != nil {
			return fmt.Errorf("review: the reviewer of .planx.yaml: %w", err)
		}
	}
	return nil
}
