package command

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/internal/run/runstate"
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
		Usage: "check the work tree's run lock, refusing while a live planx holds it",
		Description: describe(`The run lock is an OS lock (flock) on .git/planx/run.lock, held by the one planx that runs,
resumes, skips or aborts in this work tree; the kernel releases it when that planx exits,
however it exits (even kill -9), so a lock never goes stale. unlock --force refuses while a
live planx holds it, naming its pid (stop that planx instead), and otherwise says the lock
is free. It does not touch the stopped run's state: resume, skip or abort it as before.`,
			"planx unlock --force",
			"planx status && planx -C ../service unlock --force"),
		Flags: []cli.Flag{&cli.BoolFlag{Name: "force", Usage: "required", Destination: &o.force}},
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
	msg, err := runstate.Unlock(repo)
	if err == nil {
		fmt.Fprintf(stdio.Out, "planx: %s\n", msg)
	}
	return err
}
