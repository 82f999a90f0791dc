package executor

import (
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/runstate"
)

// execOptions are what the run's task processes run with in the user's
// work tree; a wave's slot changes what differs (worktree.go).
func (r *runner) execOptions() execute.Options {
	return execute.Options{Dir: r.repo.Root, Passed: r.Config.Env, Plan: r.pf.Abs, RunID: r.st.RunID,
		OutDir: runstate.RunDir(r.repo, r.st.RunID), StepTimeout: r.o.StepTimeout, TaskTimeout: r.o.TaskTimeout,
		Out: r.out, Fault: r.fault, Pids: r.pids(), Jail: r.jail}
}

// pids are the run's pid files (not a dry run's: it starts nothing).
func (r *runner) pids() execute.Pids { return execute.PidsIn(r.repo.PlanxDir()) }

// gateEnv is the environment of the run's gates (execute.GateEnv).
func (r *runner) gateEnv() []string { return execute.GateEnv(r.Config.Env) }
