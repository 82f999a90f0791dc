package wave

import (
	"context"
	"slices"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// Task is one task of a wave in flight: run in its own slot (Isolated),
// then staged on the merge chain and landed (Landing), or kept failed.
type Task struct {
	T   *planparse.Task
	Log *execlog.Task // the task's log entry: Own while it runs, the run's log's after
	Own execlog.Task
	Dir string // where the task's work tree is kept if it fails
	// Groups are the plan's groups its commit completes (ticked with it).
	Groups []*planparse.Task
	Work   gitops.SHA // the task's work: a commit whose parent is the wave's base
	Fail   *outcome.Failure
	Err    error // could not be run at all, or interrupted
	// Warnings are its Planx-Warning values (e.g. outside-declared=…),
	// written into its commit at integration.
	Warnings []string
}

// WorkRef keeps a wave task's work, done but not yet integrated, reachable
// and findable after a crash.
func WorkRef(runID string, id planparse.TaskID) string {
	return record.RunRef(runID, "work/"+string(id))
}

// NewTask is t's run in a wave from its log entry lt, its work tree kept at
// dir if it fails. Its own entry is a copy down to the slices' arrays: the
// worker appends to them while the run's log (an earlier attempt's
// entries) is saved with the state.
func NewTask(t *planparse.Task, lt *execlog.Task, dir string) *Task {
	it := &Task{T: t, Own: *lt, Dir: dir}
	it.Own.Files, it.Own.Commands, it.Own.Gates = slices.Clone(lt.Files), slices.Clone(lt.Commands), slices.Clone(lt.Gates)
	it.Log = &it.Own
	return it
}

// Recover takes t's work done before a stop, kept under its work ref, as
// its own: it is integrated as it is, not run again. It says false when no
// work is kept after all (t runs again).
func Recover(ctx context.Context, repo *gitops.Repo, runID string, t *Task) bool {
	sha, err := repo.Refs().Resolve(ctx, WorkRef(runID, t.T.ID))
	if err != nil || sha == "" {
		return false
	}
	t.Work = sha
	// The log entry as the task left it (NewTask's caller counted a new
	// attempt).
	t.Own.Attempts--
	t.Own.Status = record.TaskRunning
	return true
}
