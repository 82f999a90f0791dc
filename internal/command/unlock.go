package command

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/executor"
	"github.com/urfave/cli/v3"
)

// unlockOptions are `planx unlock`'s flags.
type unlockOptions struct {
	dir   string
	force bool
}

func newUnlockCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &unlockOptions{}
	return &cli.Command{
		Name:  "unlock",
		Usage: "remove the repository's run lock (stale locks of dead processes are taken over anyway)",
		Description: describe(`unlock removes .git/planx/run.lock whoever holds it. A lock whose process is gone is
taken over by the next planx anyway; unlock is for a lock held from another host or a
process you know is dead. It does not touch the stopped run's state: resume, skip or
abort it as before.`,
			"planx unlock --force",
			"planx status && planx -C ../service unlock --force"),
		Flags: []cli.Flag{&cli.BoolFlag{Name: "force", Usage: "required: remove the lock whoever holds it", Destination: &o.force}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if !o.force {
				return fmt.Errorf("%w: unlock removes a lock another planx may hold; pass --force", errUsage)
			}
			o.dir = g.dir
			return dispatch(ctx, g, *o, stdio, runUnlock)
		},
	}
}

func runUnlock(ctx context.Context, o unlockOptions, stdio *IO) error {
	repo, err := openRepo(ctx, o.dir)
	if err != nil {
		return err
	}
	msg, err := executor.Unlock(repo)
	if err == nil {
		fmt.Fprintf(stdio.Out, "planx: %s\n", msg)
	}
	return err
}
