package executor

import (
	"context"
	"os"

	"github.com/planx-dev/planx/checks"
	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
	"github.com/planx-dev/planx/verify"
	wavepkg "github.com/planx-dev/planx/wave"
)

// isolated is one task of a wave run in its own linked work tree.
type isolated struct {
	t   *planparse.Task
	lt  *execlog.Task // the task's log entry: own while it runs, r.log's after
	own execlog.Task
	dir string // where the task's work tree is kept if it fails
	// groups are the plan's groups its commit completes (ticked with it).
	groups []*planparse.Task
	work   gitops.SHA // the task's work: a commit whose parent is the wave's base
	fail   *outcome.Failure
	err    error // could not be run at all, or interrupted
	// warnings are its Planx-Warning values (e.g. outside-declared=…),
	// written into its commit at integration.
	warnings []string
}

// runIsolated runs one task of the wave in a slot of its own
// (wave.Isolated), with the run's steps, gates and declared-file check; its
// output lines and its writes to the run's log go through the wave's lock.
func (wv *wave) runIsolated(ctx context.Context, it *isolated) {
	r := wv.r
	t, lt := it.t, it.lt
	ran := wavepkg.Isolated{Pool: r.pool, Base: wv.base, Task: t, Keep: it.dir, Drop: []string{r.planRel, r.log.Path}, Hooks: r.waveHooks(),
		Steps: func(ctx context.Context, dir string) error { return execute.Steps(ctx, t, lt, wv.slotOptions(dir)) },
		Gates: func(ctx context.Context, dir string) error {
			sel := append(gates.Acceptance(t), gates.Select(r.Gates, t.Gates, false)...)
			o := r.keeper().GateRun()
			o.Lock = &wv.mu
			out, err := o.Run(ctx, gaterun.Spec{Task: t, Dir: dir, Gates: sel, Live: true})
			wv.mu.Lock()
			lt.Gates = out.Gates
			wv.mu.Unlock()
			if err != nil {
				return err
			}
			return out.Failure
		},
		Declared: func(root string, files []string) (string, error) {
			outside, err := verify.Declared(root, t, files, r.o.StrictFiles)
			if err != nil || len(outside) == 0 {
				return "", err
			}
			wv.mu.Lock()
			defer wv.mu.Unlock()
			return r.checks().Outside(t, outside), nil
		},
	}.Run(ctx)
	if ran.Listed {
		lt.Files = ran.Files
	}
	it.work, it.fail, it.err = ran.Work, ran.Fail, ran.Err
	it.warnings = append(it.warnings, ran.Warnings...)
}

// slotOptions are the run's execOptions for a task in the slot dir: its
// steps run there unconfined, print under the wave's lock, and record no
// pid (the wave's tasks run at once) and no crash point.
func (wv *wave) slotOptions(dir string) execute.Options {
	o := wv.r.execOptions()
	o.Dir, o.Slot, o.Shared = dir, true, &wv.mu
	o.Fault, o.Pids, o.Jail = "", execute.Pids{}, nil
	return o
}

// endRun drops what a run keeps while it lasts: the slot work trees, the
// ignored files kept aside, then the state itself.
func endRun(repo *gitops.Repo) error {
	dropRunWorktrees(repo)
	_ = os.RemoveAll(checks.KeptDir(repo))
	return runstate.Remove(repo)
}
