package command

import (
	"context"

	"github.com/planx-dev/planx/internal/run/drive"
	"github.com/urfave/cli/v3"
)

// resumeOptions are the flags of `planx resume` and `planx skip`.
type resumeOptions struct {
	out         outputOptions
	acceptDrift bool
	retry       bool // resume only
	noCache     bool // resume only
	repin       bool // resume only
}

// executor returns the options the executor takes for a run in dir.
func (o resumeOptions) executor(dir string, stdio *IO) drive.ResumeOptions {
	return drive.ResumeOptions{Dir: dir, AcceptDrift: o.acceptDrift, Retry: o.retry, NoCache: o.noCache, Repin: o.repin, Output: o.out.output(stdio)}
}

func newResumeCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &resumeOptions{}
	return &cli.Command{
		Name:    "resume",
		Aliases: []string{"continue"},
		Usage:   "continue a stopped run: commit the stopped task as fixed or done by hand, then go on",
		Description: describe(`resume continues a run that stopped at a failed or manual task, like git rebase --continue.
What is done is read from git. The stopped task's work in the tree is verified, gated and
committed as it stands (you fixed it or did it by hand): none of its steps runs again, so after a
failed step do the steps that did not run by hand (the stop names them). Of the files you changed
after the stop, a task's commit takes only those that belong to it: its attempt changed them, it
declares them, you staged them (git add), or the stop was its commit; the others stay in the work
tree, uncommitted, out of its gates, and are named. After an interrupt in
the middle of a step the output is partial and the task runs again. With --retry what its
attempt changed is discarded and the task runs again. Then the remaining tasks run. The commit
says how the task was finished (Planx-Finished).

The run keeps the gates and settings it started with. An edit of .planx.yaml you made while the
run was stopped is left out of every task commit; --repin makes it the run's gates and settings
from now on (recorded in the execution log). A change a task made to .planx.yaml is never
re-pinned.`,
			"planx resume",
			"planx resume --retry",
			"planx resume --repin          # use the gates of .planx.yaml as you edited it",
			"planx resume --accept-drift   # go on although a committed task's text changed"),
		Flags: []cli.Flag{ciFlag(&o.out), jsonEventsFlag(&o.out), followFlag(&o.out), acceptDriftFlag(o),
			&cli.BoolFlag{Name: "retry", Usage: "discard what the stopped attempt changed and execute the task again", Destination: &o.retry},
			noCacheFlag(&o.noCache),
			&cli.BoolFlag{Name: "repin", Usage: "take the gates and settings from .planx.yaml as you edited it while the run was stopped", Destination: &o.repin},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return inCI(o.out.isCI(), dispatch(ctx, g, o.executor(g.dir, stdio), stdio, runResume))
		},
	}
}

func runResume(ctx context.Context, o drive.ResumeOptions, _ *IO) error {
	_, err := drive.Resume(ctx, o)
	return err
}

func acceptDriftFlag(o *resumeOptions) cli.Flag {
	return &cli.BoolFlag{Name: "accept-drift", Usage: "go on although committed tasks changed in the plan", Destination: &o.acceptDrift}
}

func noCacheFlag(dst *bool) cli.Flag {
	return &cli.BoolFlag{Name: "no-cache", Usage: "run every gate, even one that passed on the same tree before", Destination: dst}
}
