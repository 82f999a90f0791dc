package wave

import (
	"context"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// Runner is what of a wave only the run can do, because it is the serial
// path's own: run a task's turn in a slot, and run the gates on a combined
// tree. Everything else a wave needs of the run comes in as values.
type Runner interface {
	// Turn runs t in the slot wt as the serial path runs it in the user's
	// work tree, its final gates aside (those run on the integrated
	// tree), and leaves its work staged there; a task that did not pass
	// returns an *outcome.Failure. Turns of a wave's tasks run at once.
	Turn(ctx context.Context, t *Task, wt *gitops.Repo) error
	// Gate runs the integration gate on the tree in dir, which holds the
	// work of tasks, for the pseudo task gt: the gates those tasks
	// selected, as each was gated alone (none: nothing runs). It returns
	// the gates' records and their failure (nil when they passed).
	Gate(ctx context.Context, gt *planparse.Task, dir string, tasks []*planparse.Task) ([]execlog.Gate, *outcome.Failure, error)
}
