package taskgate

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// cleanTree checks the staged tree out into a slot, for gates that must
// see exactly what is about to be committed: no ignored file, no untracked
// leftover, no file git is told not to look at. With links (cleanGates),
// the ignored entries of the work tree the gates may use there
// (node_modules/, a local config) get a symbolic link each, as for the
// judge's other checkouts (checkoutFor); without, nothing is linked.
func (k *Keeper) cleanTree(ctx context.Context, tk Task, links bool) (*Slot, error) {
	sha, err := k.Repo.Index().StagedCommit(ctx, tk.Base)
	if err != nil {
		return nil, fmt.Errorf("gates of %s in a clean worktree: %w", tk.T.ID, err)
	}
	var wt *Slot
	if !links {
		wt, err = k.Checkout(ctx, tk.T, sha, "gates", nil)
	} else {
		subs, _ := k.Repo.Index().Submodules(ctx)
		wt, err = k.checkoutFor(ctx, tk, sha, "gates", subs...)
	}
	if wt != nil {
		wt.spent = sha != tk.Base
	}
	return wt, err
}

// Slot is a clean checkout in a slot of the run's pool, until Release
// gives it back.
type Slot struct {
	dir  string     // the checkout
	sha  gitops.SHA // the commit checked out
	pool *wavepkg.Pool
	made *furnished // the user's ignored entries it was given, until unlink
	done bool
	// spent: the checkout is of a commit no task's work can be at (a
	// staged tree, never the wave's base), so what its gates left there
	// cannot be mistaken for a task's work by a stop (rewind keeps only
	// slots at the wave's base): Release gives it back as it is, which
	// keeps a checkout and a clean of the whole tree off every task's path.
	spent bool
}

// Dir is the checkout's directory.
func (u *Slot) Dir() string { return u.dir }

// Checkout puts commit sha in a slot of the run's pool of linked work
// trees (wave.Pool), under the common git dir (git never scans it, so the
// checkout cannot show up as a change of the task, wherever TMPDIR is),
// with a link to each of the work tree's ignored entries links. A slot
// made once is moved from use to use by a checkout of the files that
// differ, so a clean checkout costs about the task's changes, not the
// repository. label names the use (gates, judge, baseline) in errors.
func (k *Keeper) Checkout(ctx context.Context, t *planparse.Task, sha gitops.SHA, label string, links []string) (*Slot, error) {
	pool := k.Pool
	dir, err := pool.Take(ctx, sha)
	if err != nil {
		return nil, fmt.Errorf("%s of %s in a clean worktree: %w", label, t.ID, err)
	}
	return &Slot{dir: dir, sha: sha, pool: pool, made: furnish(k, t, dir, links)}, nil
}

// unlink removes the links into the work tree, and settles a wave task's
// own copy of the user's data (furnished.undo): before anything else is
// done in the checkout, so that nothing follows them.
func (u *Slot) unlink() { u.made.undo() }

// Release gives the slot back, once, the links first, so that nothing
// follows them. A spent slot goes back as the gates left it (its next Take
// or the run's end cleans it); any other is cleaned first, ignored outputs
// included, so that nothing reaches the next use nor looks like work to an
// abort. It cleans with a fresh context, even after an interruption; a
// slot that cannot be cleaned is not used again in this run, and the run's
// end cleans it or, failing that, removes it (wave.CleanSlots).
func (u *Slot) Release(ctx context.Context) {
	if u.done {
		return
	}
	u.done = true
	u.unlink()
	if u.spent {
		u.pool.Put(u.dir)
		return
	}
	if u.pool.Checkout(context.WithoutCancel(ctx), u.dir, u.sha) == nil {
		u.pool.Put(u.dir)
	}
}

// cleanGates says whether the gates of a task of kind run in a clean
// checkout of the staged tree, and whether ignored entries of the work
// tree are linked into it: as the user chose (gatesIn GatesClean, from
// --clean-gates: nothing linked), else for every agent task, with the
// ignored entries that were there before the agent ran (node_modules/,
// .venv/, a local config: the gates may need them, and nothing the agent
// left reaches them) and the checked-out submodules, which a linked work
// tree has empty.
func cleanGates(gatesIn string, kind planparse.Kind) (clean, links bool) {
	switch gatesIn {
	case GatesClean:
		return true, false
	case GatesTree:
		return false, false
	}
	return kind == planparse.KindAgent, true
}
