package executor

import (
	"context"
	"os"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gitops"
)

// What a gate runs is more than the files its command names: the shell
// scripts it reaches (judge.ScriptReader) are protected too, read as the
// run's base commit holds them, never from the work tree an executor may
// have changed.

// reach returns the run's gaterun.Reach, read once (a git cat-file per script
// followed; none when no gate names a script, a makefile or npm).
func (r *runner) reach(ctx context.Context) gaterun.Reach {
	if r.reached != nil {
		return r.reached
	}
	base := r.st.Base
	if base == "" {
		base = r.expect
	}
	if base == "" || r.repo == nil {
		r.reached = gaterun.Reach{}
		return r.reached
	}
	hist := r.repo.History()
	r.reached = gaterun.GateReach(r.Gates, func(p string) ([]byte, bool) {
		b, err := hist.ShowFile(ctx, base, p)
		if err != nil {
			return nil, false
		}
		return b, true
	})
	return r.reached
}

// judgeUnchanged reports whether a change to the runner configuration p
// leaves what the runner runs alone (gaterun.ConfigUnchanged), comparing
// p at the task's start (base) with the work tree's.
func judgeUnchanged(repo *gitops.Repo, base gitops.SHA) func(context.Context, string) bool {
	return func(ctx context.Context, p string) bool {
		return gaterun.ConfigUnchanged(p, func(p string) ([]byte, []byte, error) {
			before, err := repo.History().ShowFile(ctx, base, p)
			if err != nil {
				return nil, nil, err
			}
			after, err := os.ReadFile(relJoin(repo.Root, p))
			return before, after, err
		})
	}
}

// vendorUpdates compares go.mod's requirements at the task's start (base)
// and now.
func vendorUpdates(ctx context.Context, repo *gitops.Repo, base gitops.SHA) gaterun.VendorUpdates {
	before, _ := repo.History().ShowFile(ctx, base, "go.mod")
	after, _ := os.ReadFile(relJoin(repo.Root, "go.mod"))
	list, _ := os.ReadFile(relJoin(repo.Root, "vendor/modules.txt"))
	return gaterun.NewVendorUpdates(before, after, list)
}
