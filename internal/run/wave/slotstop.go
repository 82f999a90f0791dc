package wave

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
)

// KeepFunc keeps what the work tree at dir (named name: a slot, or a failed
// task's id) holds under refs/planx/runs/<run>/worktrees/ and returns the
// ref, or "" when there was nothing worth keeping.
type KeepFunc func(ctx context.Context, dir, name string) (ref string, err error)

// DropSlots cleans the slots when run runID stops (a failure, a manual
// task, Ctrl-C, SIGTERM): a stopped run holds no checkout a task left
// half done, for a resume or a person to trip over. What a stopped task
// changed in a slot is first kept (keep; abort lists it), and the slot is
// left as it is when it cannot be. The slots of the work tree's pool stay
// registered for the next run; a run's own (where runs kept them before
// the pool) are removed. The work trees failed tasks left stay, for the
// person to look at, until the run ends. The run's pool must be made again
// after it.
func DropSlots(repo *gitops.Repo, runID string, keep KeepFunc, out *progress.Progress) {
	root := Dir(repo, runID, "")
	var own []string
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "slot") {
			own = append(own, filepath.Join(root, e.Name()))
		}
	}
	for _, dir := range append(own, usedSlots(repo)...) {
		name := filepath.Base(dir)
		ref, err := keep(context.Background(), dir, name)
		if err != nil {
			out.Warn("--jobs", "the work tree "+Rel(repo, dir)+" of a stopped task is left as it is: what it holds could not be kept: "+err.Error())
			continue
		}
		if ref != "" {
			out.Println("planx: the changes a stopped task left in its work tree %s are kept at %s", name, ref)
		}
		if filepath.Dir(dir) == root || cleanSlot(dir) != nil {
			RemoveWorktree(repo, dir)
		}
	}
	_ = os.Remove(root) // only when no failed task's work tree is left in it
}

// FailedIn reports whether the task id of run runID stopped in a work
// tree of its own that is still there (a wave task that failed): its work
// is there, not in the user's work tree.
func FailedIn(repo *gitops.Repo, runID, id string) bool {
	_, err := os.Lstat(Dir(repo, runID, id))
	return err == nil
}

// KeepFailed is the first step of resume, --retry and skip at a wave task
// (id) that failed in its own work tree: the task now runs again (or is
// skipped) in the user's work tree, so what its own held (the attempt's
// output, and whatever a person changed there since) is kept, said where,
// and the work tree removed; the run's end would otherwise remove it with
// nothing kept.
func KeepFailed(ctx context.Context, repo *gitops.Repo, runID, id string, keep KeepFunc, out *progress.Progress) error {
	dir := Dir(repo, runID, id)
	if _, err := os.Lstat(dir); err != nil {
		return nil
	}
	ref, err := keep(context.WithoutCancel(ctx), dir, id)
	if err != nil {
		return fmt.Errorf("keep what the work tree %s failed in holds: %w", id, err)
	}
	if ref != "" {
		out.Println("planx: the work tree %s failed in (%s) is kept at %s (`git show --stat %s` lists what it changed, `git checkout %s -- <path>` takes a file from it)",
			id, Rel(repo, dir), ref, ref, ref)
	}
	RemoveWorktree(repo, dir)
	return nil
}
