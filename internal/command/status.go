package command

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/planx-dev/planx/executor"
	"github.com/urfave/cli/v3"
)

type statusOptions struct {
	dir  string
	json bool
}

func newStatusCmd(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show the run in progress: each task's state, drift, what to do next (exit 3 when stopped on a failure, 6 on drift)",
		Flags: []cli.Flag{dirFlag(), &cli.BoolFlag{Name: "json", Usage: "print one JSON object"}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStatus(ctx, statusOptions{dir: cmd.String("C"), json: cmd.Bool("json")}, stdio)
		},
	}
}

func runStatus(ctx context.Context, o statusOptions, stdio *IO) error {
	rep, err := executor.Status(ctx, o.dir)
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.Status, detail, t.Title)
	}
	_ = tw.Flush()
	for _, t := range rep.Tasks {
		if t.Status == "rewritten" {
			fmt.Fprintf(w, "\nrewritten: %s\n", t.Reason)
		}
	}
	for _, d := range rep.Drift {
		fmt.Fprintf(w, "\ndrift: %s\n", d.String())
	}
	fmt.Fprintf(w, "\nnext: %s\n", rep.Next)
	return err
}
