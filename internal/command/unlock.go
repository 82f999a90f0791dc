package command

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/executor"
	"github.com/planx-dev/planx/gitops"
	"github.com/urfave/cli/v3"
)

func newUnlockCmd(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:  "unlock",
		Usage: "check the work tree's run lock: an OS lock, released when its planx exits however it exits; refused while a live planx holds it",
		Flags: []cli.Flag{dirFlag(), &cli.BoolFlag{Name: "force", Usage: "required"}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if !cmd.Bool("force") {
				return fmt.Errorf("%w: unlock removes a lock another planx may hold; pass --force", errUsage)
			}
			repo, err := gitops.Open(ctx, firstNonEmptyStr(cmd.String("C"), "."))
			if err != nil {
				return err
			}
			msg, err := executor.Unlock(repo)
			if err == nil {
				fmt.Fprintf(stdio.Out, "planx: %s\n", msg)
			}
			return err
		},
	}
}

func firstNonEmptyStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
