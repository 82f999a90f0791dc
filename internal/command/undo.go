package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/urfave/cli/v3"
)

// undoOptions are `planx undo`'s flags.
type undoOptions struct {
	dir string
}

func newUndoCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &undoOptions{}
	return &cli.Command{
		Name:  "undo",
		Usage: "take the last finished run back off the branch (its commits are kept under refs/planx/undone/)",
		Description: describe(`undo puts the branch back as it was before the last run that finished on it: HEAD at the
commit before the run's rollback commit, the uncommitted work that commit had taken
uncommitted again, and what was staged staged. The run's commits stay reachable from
refs/planx/undone/<run>. undo refuses while a run is in progress, when the work tree has
changes, and when commits were made on the branch after the run's last one. Run again, it
undoes the run before (when the branch was at its end).`,
			"planx undo",
			"planx -C ../other-clone undo",
			"git log refs/planx/undone/<run>   # the undone run's commits"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			o.dir = g.dir
			return dispatch(ctx, g, *o, stdio, runUndo)
		},
	}
}

func runUndo(ctx context.Context, o undoOptions, stdio *IO) error {
	res, err := recovery.Undo(ctx, o.dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "planx: undid run %s of %s; HEAD is back at %s\n", res.RunID, res.Plan, orUnborn(string(res.Restored)))
	if len(res.Uncommitted) > 0 {
		fmt.Fprintf(stdio.Out, "planx: your uncommitted work from before the run is uncommitted again: %s\n", strings.Join(res.Uncommitted, ", "))
	}
	fmt.Fprintf(stdio.Out, "planx: the run's commits are kept at %s (git log %s)\n", res.Ref, res.Ref)
	return nil
}
