package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/prompt"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/rewind"
	"github.com/urfave/cli/v3"
)

// abortOptions are `planx abort`'s flags.
type abortOptions struct {
	abort recovery.AbortOptions
	out   outputOptions
	yes   bool
}

func newAbortCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &abortOptions{}
	return &cli.Command{
		Name:  "abort",
		Usage: "return the repository to its state before the run (the run's commits and log are kept under refs/planx/runs/)",
		Description: describe(`abort ends a stopped run like git rebase --abort: the branch goes back to where it was
before the run, with the uncommitted work the rollback commit had snapshotted (if any) back in
the work tree and the index as it was. Nothing is lost: the run's commits stay reachable from
refs/planx/runs/<run>/head (when it made any), the work tree at the abort, when it held changes,
from refs/planx/runs/<run>/aborted, a parallel wave's tasks done but not integrated from
refs/planx/runs/<run>/work/<task> and what its work trees held from
refs/planx/runs/<run>/worktrees/<task>, and the execution log is copied under
.git/planx/runs/<run>/. abort prints each ref it made.`,
			"planx abort",
			"planx abort --yes",
			"git log refs/planx/runs/<run>/head   # the aborted run's commits"),
		Flags: []cli.Flag{ciFlag(&o.out),
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation", Destination: &o.yes},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			o.abort = recovery.AbortOptions{Dir: g.dir, Output: o.out.output(stdio)}
			return dispatch(ctx, g, *o, stdio, runAbort)
		},
	}
}

func runAbort(ctx context.Context, o abortOptions, stdio *IO) error {
	if !o.yes {
		if !stdio.Terminal || o.out.isCI() {
			return fmt.Errorf("%w: abort resets the branch; confirm with --yes when not on a terminal", errUsage)
		}
		if !prompt.YesNo(stdio.In, stdio.Out, "Abort the run and reset the branch to its state before the run? [y/N] ") {
			fmt.Fprintln(stdio.Out, "planx: not aborted")
			return nil
		}
	}
	res, err := recovery.Abort(ctx, o.abort)
	if err != nil {
		return err
	}
	work := "and the work tree clean, as it was"
	if res.Uncommitted {
		work = "with your former uncommitted work"
	}
	fmt.Fprintf(stdio.Out, "planx: aborted run %s; HEAD is back at %s %s\n", res.RunID, orUnborn(string(res.Restored)), work)
	if res.HeadRef != "" {
		fmt.Fprintf(stdio.Out, "planx: the run's commits are kept at %s\n", res.HeadRef)
	}
	if len(res.Later) > 0 {
		fmt.Fprintf(stdio.Out, "planx: %d commit(s) made on the branch after the run stopped are kept there too (git cherry-pick them back):\n", len(res.Later))
		for _, c := range res.Later {
			fmt.Fprintf(stdio.Out, "  %s %s (%s)\n", c.SHA.Short(), c.Subject, c.Author)
		}
	}
	for _, k := range res.Wave {
		switch k.What {
		case rewind.KeptDone:
			fmt.Fprintf(stdio.Out, "planx: the work of %s, done in its own work tree but never integrated, is kept at %s\n", k.Name, k.Ref)
		case rewind.KeptFailed:
			fmt.Fprintf(stdio.Out, "planx: the work tree %s failed in is kept at %s\n", k.Name, k.Ref)
		default:
			fmt.Fprintf(stdio.Out, "planx: the work tree %s, with the changes of a wave task that was stopped, is kept at %s\n", k.Name, k.Ref)
		}
	}
	if res.WorkRef != "" {
		fmt.Fprintf(stdio.Out, "planx: the work tree as it was at the abort is kept at %s\n", res.WorkRef)
	}
	if len(res.Edited) > 0 {
		fmt.Fprintf(stdio.Out, "planx: changed by you after the run stopped, and taken out of the work tree with the rest: %s (`git checkout %s -- %s` gets it back)\n",
			strings.Join(res.Edited, ", "), res.WorkRef, res.Edited[0])
	}
	if len(res.InTheWay) > 0 {
		fmt.Fprintf(stdio.Out, "planx: changed by you while the run's wave ran, in its landing's way, and taken out of the work tree with the rest: %s (`git checkout %s -- %s` gets it back)\n",
			strings.Join(res.InTheWay, ", "), res.WorkRef, res.InTheWay[0])
	}
	if res.KeptConfig {
		fmt.Fprintf(stdio.Out, "planx: your edit of %s made after the run stopped is left in the work tree, uncommitted, for the next run\n", gates.ConfigFile)
	}
	if res.LogCopy != "" {
		fmt.Fprintf(stdio.Out, "planx: execution log kept at %s\n", res.LogCopy)
	}
	return nil
}

func orUnborn(sha string) string {
	if sha == "" {
		return "no commit (unborn branch)"
	}
	return sha[:min(12, len(sha))]
}
