package execute

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/progress"
)

// Options are what a task's processes run with: where, with which
// environment, for how long, reporting where. The serial loop runs them
// in the user's work tree; a wave task in its slot, with its own Dir and
// Slot, Shared set, and no Fault, Pids or Jail.
type Options struct {
	Dir string // the work tree the process runs in (PLANX_REPO)
	// Repo is Dir's repository: an agent's commits in its task space are
	// read and taken from there.
	Repo *gitops.Repo
	// Held are the work tree's entries git ignores, as they were before
	// the executor ran ("node_modules/", "local.env"): the user's data,
	// which an agent's task space never writes back.
	Held   []string
	Slot   bool     // Dir is a wave's linked work tree (PLANX_WORKTREE)
	Passed []string // the names .planx.yaml passes under `env:`
	Plan   string   // the plan's absolute path (PLANX_PLAN)
	RunID  string   // PLANX_RUN_ID
	// OutDir is the run's directory: the output of each step and agent,
	// the agent's prompt and its state directory (OutDir/agent).
	OutDir string
	// StepTimeout bounds one step, TaskTimeout all of a task's steps or its
	// agent (0: none; an agent then gets DefaultAgentTimeout).
	StepTimeout, TaskTimeout time.Duration
	Out                      *progress.Progress
	Fault                    fault.Hook // the crash tests' "during-step" point
	Pids                     Pids       // where the running child is recorded; zero: nowhere
	Jail                     *Jail      // nil: steps run unconfined (agents need one)
	// StepSpace, when set, is the state directory of the task space the
	// task's steps run in (stepspace.go): the serial path's, where the
	// platform has spaces; "" runs them in Dir itself.
	StepSpace string
	// Start is the commit of the work tree as the attempt found it
	// (runstate.State.AttemptPre): what a person changed since is theirs.
	Start gitops.SHA
	// Own are planx's own files in Dir (the execution log): a step's write
	// of one in its task space is not taken out.
	Own []string
	// HiddenTests is the hidden tests' directory ("" for none): an agent's
	// or reviewer's space hides it, and the outputs of the judge's runs
	// with them (HiddenOut), and refuses to run where it has no space.
	HiddenTests string
	// Shared is set when other tasks write output at the same time (a
	// wave): end lines are written under it.
	Shared sync.Locker
	// Budget, when set, is what an agent attempt may spend: the agent is
	// stopped once it goes over.
	Budget *Budget
}

// stepTimeout is the timeout of the next step given the task's start: the
// step's own bound, or what is left of the task's when that is shorter.
func (o Options) stepTimeout(taskStart time.Time) time.Duration {
	d := o.StepTimeout
	if o.TaskTimeout > 0 {
		left := o.TaskTimeout - time.Since(taskStart)
		if left < time.Millisecond {
			left = time.Millisecond
		}
		if d == 0 || left < d {
			d = left
		}
	}
	return d
}

// HiddenOut is where the outputs of the judge's runs with the hidden
// tests go, under the run's directory: hidden from agents with the tests.
func (o Options) HiddenOut() string { return filepath.Join(o.OutDir, "hidden") }

// hide are the directories an agent's or reviewer's space hides (made
// first: a space hides what exists).
func (o Options) hide() ([]string, error) {
	if o.HiddenTests == "" {
		return nil, nil
	}
	if err := os.MkdirAll(o.HiddenOut(), 0o700); err != nil {
		return nil, fmt.Errorf("the hidden tests' output directory: %w", err)
	}
	return []string{o.HiddenTests, o.HiddenOut()}, nil
}
