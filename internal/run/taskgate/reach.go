package taskgate

import (
	"context"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/gaterun"
)

// What a gate runs is more than the files its command names: the shell
// scripts it reaches (judge.ScriptReader) are protected too, read as the
// run's base commit holds them, never from the work tree an executor may
// have changed.

// Reach returns the run's gaterun.Reach, read once (a git cat-file per
// script followed; none when no gate names a script, a makefile or npm)
// from the run's base, else from expect, where the task started.
func (k *Keeper) Reach(ctx context.Context, expect gitops.SHA) gaterun.Reach {
	if k.reached != nil {
		return k.reached
	}
	base := k.State.Base
	if base == "" {
		base = expect
	}
	if base == "" || k.Repo == nil {
		k.reached = gaterun.Reach{}
		return k.reached
	}
	hist := k.Repo.History()
	k.reached = gaterun.GateReach(k.Gates, func(p string) ([]byte, bool) {
		b, err := hist.ShowFile(ctx, base, p)
		if err != nil {
			return nil, false
		}
		return b, true
	})
	return k.reached
}

// Reached is what Reach read: nil before it ran, or without a keeper.
func (k *Keeper) Reached() gaterun.Reach {
	if k == nil {
		return nil
	}
	return k.reached
}
