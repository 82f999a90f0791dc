package executor

import (
	"context"
	"os"

	"github.com/planx-dev/planx/checks"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/runstate"
	wavepkg "github.com/planx-dev/planx/wave"
)

// runIsolated runs one task of the wave in a slot of its own
// (wave.Isolated) through the serial path's turn, in the slot: the same
// execute, verify, judge and gates, with the same attempts; its output
// lines and its writes to the run's log go through the wave's lock.
func (wv *wave) runIsolated(ctx context.Context, it *wavepkg.Task) {
	r := wv.r
	t, lt := it.T, it.Log
	r.out.Phase(t.ID, "preparing its slot")
	ran := wavepkg.Isolated{Pool: r.pool, Base: wv.base, Task: t, Keep: it.Dir, Drop: []string{r.planRel, r.log.Path}, Hooks: wv.hooks,
		Turn: func(ctx context.Context, wt *gitops.Repo) error {
			p, err := wv.slotPlace(wt)
			if err != nil {
				return err
			}
			tu, err := r.newTurn(ctx, p, t, lt)
			if err != nil {
				return err
			}
			err = tu.attempts(ctx, false, false)
			it.Warnings = append(it.Warnings, tu.Warnings...)
			if err == nil {
				r.out.Phase(t.ID, "commit") // its work, recorded in the slot
			}
			return err
		},
	}.Run(ctx)
	if ran.Listed {
		lt.Files = ran.Files
	}
	it.Work, it.Fail, it.Err = ran.Work, ran.Fail, ran.Err
	// Its line stays until the wave has landed: a task done in its slot
	// is not committed yet, and the wave's lines keep their places.
	switch {
	case ran.Err != nil:
		r.out.Phase(t.ID, "stopped")
	case ran.Fail != nil:
		r.out.Phase(t.ID, "failed: said when the wave has landed")
	default:
		r.out.Phase(t.ID, "waiting to land")
	}
}

// slotOptions are the run's execOptions for a task in the slot dir: its
// processes print under the wave's lock, and record no pid (the wave's
// tasks run at once) and no crash point. An agent is confined to the slot
// as it is to the work tree.
func (wv *wave) slotOptions(dir string) execute.Options {
	o := wv.r.execOptions()
	o.Dir, o.Slot, o.Shared = dir, true, wv.mu
	o.Fault, o.Pids = "", execute.Pids{}
	return o
}

// endRun drops what a run keeps while it lasts: the slot work trees, the
// ignored files kept aside, then the state itself.
func endRun(repo *gitops.Repo) error {
	dropRunWorktrees(repo)
	_ = os.RemoveAll(checks.KeptDir(repo))
	return runstate.Remove(repo)
}
