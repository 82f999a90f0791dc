package command

import (
	"context"

	"github.com/planx-dev/planx/internal/run/drive"
	"github.com/urfave/cli/v3"
)

func newSkipCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &resumeOptions{}
	return &cli.Command{
		Name:  "skip",
		Usage: "skip the stopped task (discarding what its attempt changed) and go on",
		Description: describe(`skip gives up on the stopped task, like git rebase --skip: what its attempt changed is
discarded, the skip is recorded in the execution log and in the next commit's Planx-Skipped
trailer, and the remaining tasks run.`,
			"planx skip",
			"planx skip --ci"),
		Flags: []cli.Flag{ciFlag(&o.out), jsonEventsFlag(&o.out), followFlag(&o.out), acceptDriftFlag(o)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return inCI(o.out.isCI(), dispatch(ctx, g, o.executor(g.dir, stdio), stdio, runSkip))
		},
	}
}

func runSkip(ctx context.Context, o drive.ResumeOptions, _ *IO) error {
	_, err := drive.Skip(ctx, o)
	return err
}
