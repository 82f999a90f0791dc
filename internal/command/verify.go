package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/planx-dev/planx/review"
	"github.com/urfave/cli/v3"
)

// verifyOptions are `planx verify`'s arguments.
type verifyOptions struct {
	Dir        string
	Range      string
	Rev        string
	Plan       string
	RerunGates bool
	JSON       bool
}

func newVerifyCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &verifyOptions{}
	return &cli.Command{
		Name:      "verify",
		Usage:     "check from git history alone that each task commit proves its task (for pre-push hooks and CI)",
		ArgsUsage: "[A..B]",
		Description: describe(`Without a range, verify checks every task commit of the most recent run reachable from HEAD;
with A..B, the task commits in it. Each must have well-formed trailers, name a task still in the
plan with the same text (else drift: exit 6, with a diff), record its gates as passed (else exit 3),
come after its dependencies and change more than the plan and the log. Plan tasks not done yet are
warnings. --rerun-gates runs the plan's gates again on the tip in a temporary worktree.
A shallow clone cut inside a run exits 5: fetch the whole history (fetch-depth: 0).
JSON output follows docs/schema/verify.json.`,
			"planx verify",
			"planx verify origin/main..HEAD",
			"planx verify --rerun-gates --plan memory-bank/plan/x.md",
			"planx verify --json | jq .tasks"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "rerun-gates", Usage: "run the plan's gates on the tip's tree in a temporary worktree", Destination: &o.RerunGates},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object (docs/schema/verify.json)", Destination: &o.JSON},
			&cli.StringFlag{Name: "rev", Usage: "without a range, check the latest run reachable from `REV` instead of HEAD", Destination: &o.Rev},
			&cli.StringFlag{Name: "plan", Usage: "only consider runs of this `PLAN`", Destination: &o.Plan},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() > 1 {
				return fmt.Errorf("%w: verify takes at most one A..B range", errUsage)
			}
			o.Dir, o.Range = g.dir, cmd.Args().First()
			if o.Range != "" && o.Rev != "" {
				return fmt.Errorf("%w: give a range or --rev, not both", errUsage)
			}
			return dispatch(ctx, g, *o, stdio, runVerify)
		},
	}
}

func runVerify(ctx context.Context, o verifyOptions, stdio *IO) error {
	repo, err := openRepo(ctx, o.Dir)
	if err != nil {
		return err
	}
	opts := review.Options{Range: o.Range, Rev: o.Rev, Plan: reviewPlanArg(repo, o.Dir, o.Plan), RerunGates: o.RerunGates}
	if !o.JSON {
		// Gate output goes to stderr so stdout stays the report.
		opts.GateOutput = stdio.Err
	}
	rep, err := review.Verify(ctx, repo, opts)
	if errors.Is(err, review.ErrRange) {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if err != nil && rep.Tip == "" && len(rep.Findings) == 0 {
		return err // could not read the repository: there is no report
	}
	if o.JSON {
		if jerr := printReviewJSON(stdio.Out, rep); jerr != nil {
			return jerr
		}
	} else {
		writeVerifyText(stdio.Out, rep)
	}
	return err
}

func writeVerifyText(w io.Writer, rep review.Report) {
	scope := "most recent run"
	if rep.Range != "" {
		scope = rep.Range
	}
	if len(rep.Runs) == 0 {
		fmt.Fprintf(w, "verify %s: no planx task commits to check\n", scope)
	}
	for _, r := range rep.Runs {
		fmt.Fprintf(w, "verify %s: run %s of %s, %d task commit(s) up to %s\n", scope, r.ID, r.Plan, len(r.Tasks), rep.Tip.Short())
		for _, t := range r.Tasks {
			mark := "ok  "
			if !t.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(w, "  %s %s %s  %s\n", mark, t.ID, t.Commit.Short(), gateSummary(t.Gates))
		}
	}
	errs, warns := 0, 0
	for _, f := range rep.Findings {
		if f.Severity == review.SeverityError {
			errs++
		} else {
			warns++
		}
		fmt.Fprintf(w, "%s: %s: %s\n", f.Severity, f.Kind, f.Message)
		if f.Diff != "" {
			fmt.Fprint(w, indent(f.Diff, "    "))
		}
	}
	if len(rep.Gates) > 0 {
		fmt.Fprintf(w, "gates re-run on %s:\n", rep.Tip.Short())
		for _, g := range rep.Gates {
			v := "pass"
			if !g.Passed {
				v = fmt.Sprintf("FAIL (exit %d)", g.ExitCode)
			}
			fmt.Fprintf(w, "  %s: %s, %dms\n", g.Name, v, g.DurationMS)
			if !g.Passed && g.Tail != "" {
				fmt.Fprint(w, indent(strings.TrimRight(g.Tail, "\n"), "    | "))
			}
		}
	}
	if errs == 0 {
		fmt.Fprintf(w, "verify: ok (%d warning(s))\n", warns)
		return
	}
	fmt.Fprintf(w, "verify: %d error(s), %d warning(s)\n", errs, warns)
}
