package taskgate

import (
	"context"

	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/planparse"
)

// Furnish gives the slot dir, where task t is about to run beside the
// wave's other tasks, what the user's work tree holds that git does not
// (ignored, the entries before the wave): what the task's executor would
// have found there in the serial path. Its dependency environments
// (node_modules/, .venv/) are installed by worktree_setup when one is
// configured, once per slot for the same command and manifests (as for
// the gates' checkouts), so that an agent may install into its own; the
// other entries, and the environments when there is no worktree_setup,
// are linked (read-only to a confined executor, whose writable root is
// the slot). Caches are never linked, as for the judge's checkouts. The
// func returned removes the links, before the task's work is verified:
// git would take a link for a new file. installed are the environments
// worktree_setup installed or put back (none: the slot holds nothing
// ignored but the links).
func (k *Keeper) Furnish(ctx context.Context, t *planparse.Task, dir string, ignored []string) (installed []string, undo func(), err error) {
	if envs := gaterun.DepEnvs(k.userRoot(), ignored); len(envs) > 0 && k.WorktreeSetup != "" {
		if err := k.setup(ctx, t, dir, string(t.ID), envs); err != nil {
			return nil, func() {}, err
		}
		installed = envs
	}
	return installed, furnish(k, t, dir, gaterun.Linkable(ignored, installed...)).undo, nil
}
