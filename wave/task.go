package wave

import (
	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
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
