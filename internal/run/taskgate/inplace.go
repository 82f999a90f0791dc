package taskgate

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/planparse"
)

// A wave task's slot was checked out clean from the wave's base for it:
// when the task left nothing there beside the work it staged (Task.Fresh),
// the slot is already what a clean checkout of the staged tree would be,
// and its gates run there, with the same links and the same check after
// them, instead of in a second slot checked out and cleaned for them. On a
// large tree that saves a checkout and a walk of the whole tree per task.

// inPlace says whether the task's clean-checkout gates run in its own
// work tree, and whether the work tree's ignored entries are linked in as
// for a checkout (cleanGates).
func (k *Keeper) inPlace(tk Task) (here, links bool) {
	clean, links := cleanGates(k.GatesIn, tk.Kind)
	return clean && k.slot && tk.Fresh && !tk.ChangesDeps, links
}

// runHere is runIn's clean checkout in the task's own fresh slot: linked
// as checkoutFor links one (the user's ignored entries but caches, the
// submodules), the links gone before anything checks what the gates did.
// The slot's index is the task's staged work, which is committed: a gate
// that staged something there changed the evidence.
func (k *Keeper) runHere(ctx context.Context, tk Task, key gitops.SHA, sel []gates.Gate, links bool,
	judge *tested) error {
	dir := k.Repo.Root
	staged, err := k.Repo.Index().Tree(ctx)
	if err != nil {
		return fmt.Errorf("the staged tree of %s: %w", tk.T.ID, err)
	}
	var made *furnished
	if links {
		subs, _ := k.Repo.Index().Submodules(ctx)
		made = furnish(k, tk.T, dir, append(gaterun.Linkable(tk.Ignored), subs...))
	}
	err = k.runGateSet(ctx, tk.T, tk.Log, dir, key, sel, judge)
	made.undo()
	if err != nil {
		return err
	}
	now, err := k.Repo.Index().Tree(ctx)
	if err != nil || now == staged {
		return err
	}
	paths, err := k.Repo.History().ChangedFiles(ctx, staged, now)
	if err != nil {
		return err
	}
	return unsettled(paths)
}

// settledHere is settledIn for gates run in the task's own slot: its
// tracked files must still hold what was staged; new files a gate wrote
// are its outputs, as in a checkout, which the commit (the staged tree)
// never takes.
func (k *Keeper) settledHere(ctx context.Context, t *planparse.Task) error {
	changes, err := k.Repo.Index().TrackedChanges(ctx)
	if err != nil {
		return fmt.Errorf("the work tree of %s after its gates: %w", t.ID, err)
	}
	var paths []string
	for _, c := range changes {
		if c.Work != '.' {
			paths = append(paths, c.Path)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return unsettled(paths)
}
