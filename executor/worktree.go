package executor

import (
	"context"
	"os"

	"github.com/planx-dev/planx/checks"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/runstate"
	"github.com/planx-dev/planx/verify"
	wavepkg "github.com/planx-dev/planx/wave"
)

// runIsolated runs one task of the wave in a slot of its own
// (wave.Isolated), with the run's steps, gates and declared-file check; its
// output lines and its writes to the run's log go through the wave's lock.
func (wv *wave) runIsolated(ctx context.Context, it *wavepkg.Task) {
	r := wv.r
	t, lt := it.T, it.Log
	ran := wavepkg.Isolated{Pool: r.pool, Base: wv.base, Task: t, Keep: it.Dir, Drop: []string{r.planRel, r.log.Path}, Hooks: wv.hooks,
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
	it.Work, it.Fail, it.Err = ran.Work, ran.Fail, ran.Err
	it.Warnings = append(it.Warnings, ran.Warnings...)
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
