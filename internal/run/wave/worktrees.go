package wave

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Dir is where a task of a run gets its own work tree (name is the task's
// id, or a slot's name; "" is the run's directory of them): under the
// common git dir, so it is never part of any work tree's status.
func Dir(repo *gitops.Repo, runID string, name string) string {
	return filepath.Join(repo.CommonDir, "planx", "worktrees", runID, name)
}

// Rel names a directory under repo relative to its root when it can
// (.git/planx/worktrees/...).
func Rel(repo *gitops.Repo, dir string) string {
	if rel, err := repo.Rel(dir); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return dir
}

// Kept is the work tree a failed task id of run runID left, named as Rel
// names it, or "" when there is none.
func Kept(repo *gitops.Repo, runID, id string) string {
	dir := Dir(repo, runID, id)
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return Rel(repo, dir)
}

// RemoveWorktree removes the linked work tree at dir from disk and from
// git's list, whatever was left in it and even after an interruption (git
// removes a work tree in a moment). When git cannot remove it (half made,
// or its administrative files gone), the directory is deleted and git's
// entry for it, if any, forgotten: a directory deleted that git still
// lists would make the next git worktree add there fail.
func RemoveWorktree(repo *gitops.Repo, dir string) {
	ctx := context.Background()
	if repo.Worktrees().Remove(ctx, dir) == nil {
		return
	}
	_ = os.RemoveAll(dir)
	_ = repo.Worktrees().Remove(ctx, dir)
}

// DropRunWorktrees removes the work trees failed tasks kept (and a run's
// own slots, where runs kept them before the pool) once their run is over
// (completed or aborted), and git's entries for those an earlier crash
// deleted behind its back; the runs busy names (in progress in another
// work tree) keep theirs. The slots of the work tree's pool are cleaned
// and stay (CleanSlots).
// Without parallel waves there is nothing to remove and it costs one stat.
// Removing a work tree waits mostly on the file system's journal, not on a
// CPU, so several go at once: four of 20,000 files took 8.3 s together and
// 16 s one after another (bench/README.md).
func DropRunWorktrees(repo *gitops.Repo, busy map[string]bool) {
	CleanSlots(repo)
	root := filepath.Join(repo.CommonDir, "planx", "worktrees")
	runs, err := os.ReadDir(root)
	if err != nil {
		return
	}
	runs = slices.DeleteFunc(runs, func(d os.DirEntry) bool { return busy[d.Name()] })
	var dirs []string
	for _, run := range runs {
		tasks, _ := os.ReadDir(filepath.Join(root, run.Name()))
		for _, t := range tasks {
			dirs = append(dirs, filepath.Join(root, run.Name(), t.Name()))
		}
	}
	eachAtOnce(dirs, func(dir string) { RemoveWorktree(repo, dir) })
	for _, run := range runs {
		_ = os.Remove(filepath.Join(root, run.Name()))
	}
	// What a crash deleted without telling git (git lists it as prunable).
	_, _ = forgetMissing(context.Background(), repo, root)
}

// maxRemovals bounds the work trees removed at once.
const maxRemovals = 4

// Next is what to do after a stop at the task id in the run runID in repo
// (nil before it is known): inWave says the stop came inside a parallel
// wave, way the paths of a person's its landing stopped at (clear); else
// the task's work tree kept after it failed in a wave, if any. It is ""
// when none applies.
func Next(inWave bool, way []string, repo *gitops.Repo, runID string, id planparse.TaskID) string {
	if inWave && len(way) > 0 {
		return fmt.Sprintf("the wave's landing stopped at your changes to %s: `planx resume` keeps your version under %s<n> and lands the wave over it; or commit or stash them first, then `planx resume`",
			textsafe.List(way), record.RunRef(runID, "kept/"))
	}
	if inWave {
		return "the run stopped inside a parallel wave; `planx resume` integrates the tasks whose work was done, without running them again, and runs the others again"
	}
	if repo == nil {
		return ""
	}
	if dir := Kept(repo, runID, string(id)); dir != "" {
		return fmt.Sprintf("the work of %s is kept in %s; fix the cause, then `planx resume` runs it again in your work tree, or `planx skip` skips it (either keeps what %s holds under refs/planx/runs/%s/worktrees/%s first)", id, dir, dir, runID, id)
	}
	return ""
}
