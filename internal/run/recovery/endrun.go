package recovery

import (
	"cmp"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/aside"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// EndRun drops what a run keeps while it lasts: the slot work trees
// (wave.DropRunWorktrees, leaving those of runs in progress in other work
// trees), the ignored files kept aside once every one is back in the work
// tree (verify.EndIgnored: a crash mid-task may have left one deleted or
// changed, which nothing put back yet), then the state itself. Abort, undo
// and the end of a finished run all end it so.
func EndRun(repo *gitops.Repo, st *runstate.State, out *progress.Progress) error {
	wavepkg.DropRunWorktrees(repo, runstate.RunsElsewhere(repo))
	execute.RemoveSpaces(st.RunID)
	task := cmp.Or(st.Current, planparse.TaskID("end"))
	for _, msg := range aside.End(repo, st.RunID, string(task)) {
		out.Warn(task, msg)
	}
	return runstate.Remove(repo)
}
