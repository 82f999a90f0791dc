package command

import (
	"context"
	"os"

	"github.com/planx-dev/planx/executor"
	"github.com/urfave/cli/v3"
)

func newResumeCmd(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:    "resume",
		Aliases: []string{"continue"},
		Usage:   "continue a stopped run: commit a task fixed or done by hand, then go on",
		Flags:   []cli.Flag{dirFlag(), ciFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runResume(ctx, executor.ResumeOptions{Dir: cmd.String("C")}, ciMode(cmd), stdio)
		},
	}
}

func runResume(ctx context.Context, o executor.ResumeOptions, ci bool, stdio *IO) error {
	o.Out = stdio.Out
	o.Terminal = stdio.Terminal && !ci
	o.Color = o.Terminal && os.Getenv("NO_COLOR") == ""
	_, err := executor.Resume(ctx, o)
	return err
}
