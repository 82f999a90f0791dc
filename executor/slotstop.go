package executor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// dropSlots removes the run's slots when the run stops (a failure, a
// manual task, Ctrl-C, SIGTERM): a stopped run holds no clean checkout, and
// none stays listed by git for a resume or a person to trip over. A slot at
// the base of the wave in flight that a stopped task changed is first kept
// under refs/planx/runs/<run>/worktrees/ (abort lists it), and stays when
// it cannot be. The work trees failed tasks left stay, for the person to
// look at, until the run ends. The next use of a slot makes the pool again.
func (r *runner) dropSlots() {
	root := worktreeDir(r.repo, r.st.RunID, "")
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	ctx := context.Background()
	done := doneTrees(ctx, r.repo, r.st.RunID)
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "slot") {
			continue
		}
		dir := filepath.Join(root, name)
		k, err := keepWorktree(ctx, r.repo, r.st, dir, name, done)
		if err != nil {
			r.out.Warn("--jobs", "the work tree "+relDir(r.repo, dir)+" of a stopped task is left in place: what it holds could not be kept: "+err.Error())
			continue
		}
		if k != nil {
			r.out.Println("planx: the changes a stopped task left in its work tree %s are kept at %s", name, k.Ref)
		}
		removeWorktree(r.repo, dir)
	}
	r.pool = nil
	_ = os.Remove(root) // only when no failed task's work tree is left in it
}

// keepFailedWorktree is the first step of resume, --retry and skip at a
// wave task that failed in its own work tree: the task now runs again (or
// is skipped) in the user's work tree, so what its own held (the attempt's
// output, and whatever a person changed there since) is kept under
// refs/planx/runs/<run>/worktrees/<task>, said where, and the work tree
// removed; the run's end would otherwise remove it with nothing kept.
func (r *runner) keepFailedWorktree(ctx context.Context, t *planparse.Task) error {
	dir := worktreeDir(r.repo, r.st.RunID, string(t.ID))
	if _, err := os.Lstat(dir); err != nil {
		return nil
	}
	k, err := keepWorktree(context.WithoutCancel(ctx), r.repo, r.st, dir, string(t.ID), nil)
	if err != nil {
		return fmt.Errorf("keep what the work tree %s failed in holds: %w", t.ID, err)
	}
	if k != nil {
		r.out.Println("planx: the work tree %s failed in (%s) is kept at %s (`git show --stat %s` lists what it changed, `git checkout %s -- <path>` takes a file from it)",
			t.ID, relDir(r.repo, dir), k.Ref, k.Ref, k.Ref)
	}
	removeWorktree(r.repo, dir)
	return nil
}
