package command

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/executor"
	"github.com/urfave/cli/v3"
)

type abortOptions struct {
	resume executor.ResumeOptions
	yes    bool
	ci     bool
}

func newAbortCmd(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:  "abort",
		Usage: "return the repository to its state before the run (the run's commits and log are kept under refs/planx/runs/)",
		Flags: []cli.Flag{dirFlag(), ciFlag(),
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runAbort(ctx, abortOptions{resume: resumeOptions(cmd, stdio), yes: cmd.Bool("yes"), ci: ciMode(cmd)}, stdio)
		},
	}
}

func runAbort(ctx context.Context, o abortOptions, stdio *IO) error {
	if !o.yes {
		if !stdio.Terminal || o.ci {
			return fmt.Errorf("%w: abort resets the branch; confirm with --yes when not on a terminal", errUsage)
		}
		fmt.Fprint(stdio.Out, "Abort the run and reset the branch to its state before the run? [y/N] ")
		line, _ := bufio.NewReader(stdio.In).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(stdio.Out, "planx: not aborted")
			return nil
		}
	}
	res, err := executor.Abort(ctx, o.resume)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "planx: aborted run %s; HEAD is back at %s with your former uncommitted work\n", res.RunID, orUnborn(string(res.Restored)))
	if res.HeadRef != "" {
		fmt.Fprintf(stdio.Out, "planx: the run's commits are kept at %s\n", res.HeadRef)
	}
	if len(res.Later) > 0 {
		fmt.Fprintf(stdio.Out, "planx: %d commit(s) made on the branch after the run stopped are kept there too (git cherry-pick them back):\n", len(res.Later))
		for _, c := range res.Later {
			fmt.Fprintf(stdio.Out, "  %s %s\n", c.SHA.Short(), c.Subject)
		}
	}
	if res.WorkRef != "" {
		fmt.Fprintf(stdio.Out, "planx: the work tree as it was at the abort is kept at %s\n", res.WorkRef)
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
