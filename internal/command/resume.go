package command

import (
	"context"

	"github.com/planx-dev/planx/executor"
	"github.com/urfave/cli/v3"
)

func newResumeCmd(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:    "resume",
		Aliases: []string{"continue"},
		Usage:   "continue a stopped run: commit the stopped task as fixed or done by hand, then go on",
		Flags: []cli.Flag{dirFlag(), ciFlag(), jsonEventsFlag(), acceptDriftFlag(),
			&cli.BoolFlag{Name: "retry", Usage: "discard what the stopped attempt changed and execute the task again"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o := resumeOptions(cmd, stdio)
			o.Retry = cmd.Bool("retry")
			_, err := executor.Resume(ctx, o)
			return inCI(ciMode(cmd), err)
		},
	}
}

func newSkipCmd(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:  "skip",
		Usage: "skip the stopped task (discarding what its attempt changed) and go on",
		Flags: []cli.Flag{dirFlag(), ciFlag(), jsonEventsFlag(), acceptDriftFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			_, err := executor.Skip(ctx, resumeOptions(cmd, stdio))
			return inCI(ciMode(cmd), err)
		},
	}
}

// resumeOptions fills the options resume, skip and abort share.
func resumeOptions(cmd *cli.Command, stdio *IO) executor.ResumeOptions {
	return executor.ResumeOptions{
		Dir:         cmd.String("C"),
		AcceptDrift: cmd.Bool("accept-drift"),
		Output:      outputFor(cmd, stdio),
	}
}

func acceptDriftFlag() cli.Flag {
	return &cli.BoolFlag{Name: "accept-drift", Usage: "go on although committed tasks changed in the plan"}
}
