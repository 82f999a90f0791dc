package drive

import (
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/internal/run/verify"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/internal/sandbox"
)

// execOptions are what the run's task processes run with in the user's
// work tree; a wave's slot changes what differs (worktree.go).
func (r *runner) execOptions() execute.Options {
	return execute.Options{Dir: r.repo.Root, Repo: r.repo, Passed: r.Config.Env, Plan: r.pf.Abs, RunID: r.st.RunID,
		OutDir: runstate.RunDir(r.repo, r.st.RunID), StepTimeout: r.o.StepTimeout, TaskTimeout: r.o.TaskTimeout,
		Out: r.out, Fault: r.fault, Pids: r.pids(), Jail: r.jail, HiddenTests: r.hidden}
}

// pids are the run's pid files (not a dry run's: it starts nothing).
func (r *runner) pids() execute.Pids { return execute.PidsIn(r.repo.PlanxDir()) }

// keeper runs the run's gates (taskgate.Keeper), made once the run's
// state is there, and again for another state (a run that resumes). Its
// pool is the run's, made again after a stop dropped the slots. A wave's
// tasks call it at once: it writes nothing unless the pool was dropped
// (between waves), so that they only read.
func (r *runner) keeper() *taskgate.Keeper {
	if r.pool == nil {
		r.pool = wavepkg.NewPool(r.repo)
	}
	if r.gateKeeper != nil && r.gateKeeper.State == r.st {
		if r.gateKeeper.Pool != r.pool {
			r.gateKeeper.Pool = r.pool
		}
		return r.gateKeeper
	}
	r.gateKeeper = &taskgate.Keeper{Repo: r.repo, State: r.st, Gates: r.Gates,
		Env: execute.GateEnv(r.Config.Env), ConfigEnv: r.Config.Env,
		Overridden:    taskgate.Overridden(r.Config.Gates, r.Plan.Gates, r.o.Gates),
		WorktreeSetup: r.Config.WorktreeSetup, StepTimeout: r.o.StepTimeout, Manifests: verify.DepManifests(),
		PlanRel: r.planRel, NoCache: r.o.NoCache, GatesIn: r.o.GatesIn, HiddenTests: r.hidden, HiddenRef: r.Config.HiddenRef,
		BaselineOn:             taskgate.BaselineOn(r.o.Baseline, r.o.AcceptBaselineFailures, r.Config.Baseline),
		AcceptBaselineFailures: r.o.AcceptBaselineFailures,
		Out:                    r.out, Fault: r.fault, Desk: r.desk(), Pids: r.pids(), Reaper: r.reaper.Reaper, Pool: r.pool,
		Spaces: r.judgeSpaces(),
	}
	return r.gateKeeper
}

// judgeSpaces are the judge's spaces (gaterun.Spaces) unless the user
// turned spaces off (`sandbox: {space: false}`) or capped them
// (PLANX_SANDBOX_MAX): then the judge's runs are where they were before.
func (r *runner) judgeSpaces() *gaterun.Spaces {
	if r.Config.Sandbox.NoSpace || sandbox.SpacesCapped() {
		return nil
	}
	return gaterun.NewSpaces(r.st.RunID, r.jail.SpaceProbe())
}
