package gaterun

import (
	"context"
	"fmt"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// Setup runs command (the worktree_setup of .planx.yaml: npm ci, uv
// sync) in the checkout dir of task t, labelled label (base, judge,
// gates), like a gate: the gates' environment, timeout or a gate's
// default. It installs the dependency environments of a task that
// changed a manifest afresh, where they would otherwise be linked.
func (o Options) Setup(ctx context.Context, t *planparse.Task, dir, label, command string, timeout time.Duration) error {
	o.Out.Println("      worktree_setup in the %s checkout: %s", label, command)
	g := gates.Gate{Name: "worktree_setup", Command: command, Timeout: timeout}
	res, err := o.Exec(ctx, Spec{Task: t, ID: planparse.TaskID(string(t.ID) + "-" + label), Dir: dir,
		Gates: []gates.Gate{g}, Live: true, Track: true,
		Begin: func(gates.Gate) { o.Out.Phase(t.ID, "worktree_setup in the "+label+" checkout") }})
	if err != nil {
		return err
	}
	if !res[0].Passed {
		return &outcome.Failure{What: fmt.Sprintf("worktree_setup (%s) failed in the %s checkout (exit %d)", command, label, res[0].ExitCode),
			Tail: res[0].Tail}
	}
	return nil
}
