package command

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// statusOptions are `planx status`'s flags.
type statusOptions struct {
	dir  string
	json bool
}

func newStatusCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &statusOptions{}
	return &cli.Command{
		Name:  "status",
		Usage: "show the run in progress: each task's state, drift, what to do next (exit 3 when stopped on a failure, 6 on drift)",
		Description: describe(`status reads the stopped or running run's state and git: which tasks are committed, which
one stopped and why, whether the plan drifted from committed tasks, who holds the lock, and
the command to go on with. It changes nothing, and in a repository that never ran planx it
says so and creates nothing.`,
			"planx status",
			"planx status --json | jq .next",
			"planx -C ../service status"),
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object", Destination: &o.json}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			o.dir = g.dir
			return dispatch(ctx, g, *o, stdio, runStatus)
		},
	}
}

func runStatus(ctx context.Context, o statusOptions, stdio *IO) error {
	rep, err := recovery.Status(ctx, o.dir)
	if rep == nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(stdio.Out)
		enc.SetIndent("", "  ")
		if jerr := enc.Encode(rep); jerr != nil {
			return jerr
		}
		return err
	}
	w := stdio.Out
	if !rep.InProgress {
		fmt.Fprintf(w, "planx: %s\n", rep.Next)
		return err
	}
	fmt.Fprintf(w, "run %s of %s on %s: %s\n", rep.RunID, rep.Plan, rep.Branch, rep.Status)
	if rep.Base != "" {
		fmt.Fprintf(w, "rollback commit %s\n", rep.Base)
	}
	if rep.LockHolder != "" {
		fmt.Fprintf(w, "held by %s\n", rep.LockHolder)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, t := range rep.Tasks {
		detail := t.Reason
		if t.Commit != "" {
			detail = t.Commit[:min(12, len(t.Commit))]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", textsafe.Line(planparse.DisplayID(t.ID, t.Label)), t.Status, detail, t.Title)
	}
	_ = tw.Flush()
	for _, t := range rep.Tasks {
		if t.Status == record.TaskRewritten {
			fmt.Fprintf(w, "\nrewritten: %s\n", t.Reason)
		}
	}
	for _, d := range rep.Drift {
		fmt.Fprintf(w, "\ndrift: %s\n", d.String())
	}
	if rep.Config != "" {
		fmt.Fprintf(w, "\nconfiguration: %s\n", rep.Config)
	}
	if rep.Cost != nil || rep.Budget != nil {
		cost := "nothing reported"
		if rep.Cost != nil {
			cost = rep.Cost.String()
		}
		budget := "none"
		if rep.Budget != nil {
			budget = rep.Budget.String()
		}
		fmt.Fprintf(w, "\ncost so far: %s (budget: %s)\n", cost, budget)
	}
	fmt.Fprintf(w, "\nnext: %s\n", rep.Next)
	return err
}
