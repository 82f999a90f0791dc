package executor

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
	wavepkg "github.com/planx-dev/planx/wave"
)

// cleanTree checks the staged tree out into a slot, for gates that must
// see exactly what is about to be committed: no ignored file, no untracked
// leftover, no file git is told not to look at. With links (cleanGates),
// the ignored entries of the work tree the gates may use there
// (node_modules/, a local config) get a symbolic link each, as for the
// judge's other checkouts (tu.checkout); without, nothing is linked.
func (tu *turn) cleanTree(ctx context.Context, links bool) (*slotUse, error) {
	r, t := tu.r, tu.t
	sha, err := r.repo.Index().StagedCommit(ctx, r.expect)
	if err != nil {
		return nil, fmt.Errorf("gates of %s in a clean worktree: %w", t.ID, err)
	}
	return tu.cleanAt(ctx, sha, "gates", links)
}

// cleanAt checks commit sha out into a slot for gates (label names the use
// in errors), with the links of cleanTree when links is set.
func (tu *turn) cleanAt(ctx context.Context, sha gitops.SHA, label string, links bool) (*slotUse, error) {
	if !links {
		return tu.r.checkout(ctx, tu.t, sha, label, nil)
	}
	subs, _ := tu.r.repo.Index().Submodules(ctx)
	return tu.checkout(ctx, sha, label, subs...)
}

// slotUse is a clean checkout in a slot of the run's pool, until release
// gives it back.
type slotUse struct {
	dir  string     // the checkout
	sha  gitops.SHA // the commit checked out
	pool *wavepkg.Pool
	made []gaterun.Link // the links into the work tree, until unlink
	done bool
}

// checkout puts commit sha in a slot of the run's pool of linked work
// trees (wave.Pool), under the common git dir (git never scans it, so the
// checkout cannot show up as a change of the task, wherever TMPDIR is),
// with a link to each of the work tree's ignored entries links. A slot
// made once is moved from use to use by a checkout of the files that
// differ, so a clean checkout costs about the task's changes, not the
// repository.
func (r *runner) checkout(ctx context.Context, t *planparse.Task, sha gitops.SHA, label string, links []string) (*slotUse, error) {
	pool := r.slotPool()
	dir, err := pool.Take(ctx, sha)
	if err != nil {
		return nil, fmt.Errorf("%s of %s in a clean worktree: %w", label, t.ID, err)
	}
	return &slotUse{dir: dir, sha: sha, pool: pool, made: gaterun.LinkIgnored(r.repo.Root, dir, links)}, nil
}

// unlink removes the links into the work tree: before anything else is
// done in the checkout, so that nothing follows them.
func (u *slotUse) unlink() {
	gaterun.UnlinkIgnored(u.made)
	u.made = nil
}

// release gives the slot back, once: the links go first, then what the
// gates left, ignored outputs included, so that nothing reaches the next
// use (nor looks like work to an abort). It cleans with a fresh context,
// even after an interruption; a slot that cannot be cleaned is not used
// again, and the run's end removes it (dropRunWorktrees).
func (u *slotUse) release(ctx context.Context) {
	if u.done {
		return
	}
	u.done = true
	u.unlink()
	if u.pool.Checkout(context.WithoutCancel(ctx), u.dir, u.sha) == nil {
		u.pool.Put(u.dir)
	}
}

// slotPool is the run's pool of linked work trees, made on first use.
func (r *runner) slotPool() *wavepkg.Pool {
	if r.pool == nil {
		r.pool = wavepkg.NewPool(r.repo, r.st.RunID)
	}
	return r.pool
}

// cleanGates says whether t's gates run in a clean checkout of the staged
// tree, and whether ignored entries of the work tree are linked into it:
// as the user chose (--clean-gates: nothing linked), else for every agent
// task, with the ignored entries that were there before the agent ran
// (node_modules/, .venv/, a local config: the gates may need them, and
// nothing the agent left reaches them; freshdeps.go) and the checked-out
// submodules, which a linked work tree has empty.
func (tu *turn) cleanGates() (clean, links bool) {
	r, t := tu.r, tu.t
	switch r.o.GatesIn {
	case GatesClean:
		return true, false
	case GatesTree:
		return false, false
	}
	return r.Executor(t) == planparse.KindAgent, true
}
