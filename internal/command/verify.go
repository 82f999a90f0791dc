package command

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/planx-dev/planx/internal/review"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// verifyOptions are `planx verify`'s arguments.
type verifyOptions struct {
	Dir               string
	Range             string
	Rev               string
	Plan              string
	Rerun             rerunMode // review.Rerun* or ""
	NoCache           bool
	Strict            bool
	TrustBranchConfig bool
	Base              string
	JSON              bool
}

// rerunMode is --rerun-gates: alone it means "unverified", or =all, =tip.
type rerunMode struct{ mode string }

func (m *rerunMode) Set(s string) error {
	switch s {
	case "true", review.RerunUnverified:
		m.mode = review.RerunUnverified
	case "false":
		m.mode = ""
	case review.RerunAll, review.RerunTip:
		m.mode = s
	default:
		return fmt.Errorf("--rerun-gates=%s: want unverified, all or tip", s)
	}
	return nil
}
func (m *rerunMode) String() string   { return m.mode }
func (m *rerunMode) Get() any         { return m.mode }
func (m *rerunMode) IsBoolFlag() bool { return true }

func newVerifyCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &verifyOptions{}
	return &cli.Command{
		Name:      "verify",
		Usage:     "check from git history that each task commit proves its task (for pre-push hooks and CI)",
		ArgsUsage: "[A..B]",
		Description: describe(`Without a range or --rev, verify checks the current branch's commits not yet on its upstream,
else those not on any remote, else the most recent run, and says which; with A..B, the task
commits in it, across every run they touch. Each must have well-formed trailers, name a task still
in the plan with the same text (else drift: exit 6, with a diff), record its gates as passed (else
exit 3), come after its dependencies, change more than the plan and the log, and be the commit
planx made or have a tree planx's gates passed on here (else unverified: a rewrite; exit 3).
A commit of a run made in another clone is "gated locally, not re-verified here": a warning,
an error with --strict. --rerun-gates re-runs the gates of the unverified commits (=all: every
one; =tip: the newest) in a temporary worktree, with gates defined by --base (default:
origin/HEAD) and a minimal environment, and records them by tree; a tree with a passing record
is not re-run (--no-cache re-runs it). Nothing re-run vouches for nothing: definitions without a
gate (a base branch without .planx.yaml, as for the pull request that adopts planx) fail with
exit 3; gates that do not apply to a commit leave it not re-verified. A shallow clone cut inside
a run exits 5.
JSON output follows docs/schema/verify.json.`,
			"planx verify",
			"planx verify origin/main..HEAD",
			"planx verify --rerun-gates --base origin/main   # re-gate what is unverified, with main's gates",
			"planx verify --json | jq .findings"),
		Flags: []cli.Flag{
			&cli.GenericFlag{Name: "rerun-gates", Value: &o.Rerun,
				Usage: "re-run gates of unverified commits (`=all`: every commit, =tip: the newest) and record them by tree"},
			&cli.BoolFlag{Name: "no-cache", Usage: "re-run gates even on a tree with a passing record", Destination: &o.NoCache},
			&cli.BoolFlag{Name: "strict", Usage: "commits not re-verified here and overridden gates are errors", Destination: &o.Strict},
			&cli.StringFlag{Name: "base", Usage: "take re-run gate definitions from `REV` (default: origin/HEAD)", Destination: &o.Base},
			&cli.BoolFlag{Name: "trust-branch-config", Usage: "re-run the gates the checked commits define themselves", Destination: &o.TrustBranchConfig},
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
	opts := review.Options{Range: o.Range, Rev: o.Rev, Auto: o.Range == "" && o.Rev == "",
		Plan: reviewPlanArg(repo, o.Dir, o.Plan), Rerun: o.Rerun.mode, NoCache: o.NoCache, Strict: o.Strict,
		Base: o.Base, TrustBranchConfig: o.TrustBranchConfig}
	if !o.JSON {
		// Gate output goes to stderr so stdout stays the report.
		opts.GateOutput = stdio.Err
	}
	rep, err := review.Verify(ctx, repo, opts)
	if errors.Is(err, review.ErrRange) || errors.Is(err, review.ErrUntrusted) {
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
	if gh := githubOf(stdio); gh != nil {
		// The verdict's exit code wins over a summary that could not be
		// written; that one is said all the same.
		if gerr := gh.report(ctx, repo, rep); gerr != nil && err == nil {
			return gerr
		} else if gerr != nil {
			fmt.Fprintln(stdio.Err, "planx:", gerr)
		}
	}
	return err
}

func writeVerifyText(w io.Writer, rep review.Report) {
	scope := rep.Scope
	if scope == "" {
		scope = "most recent run"
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
			sb := ""
			if t.Sandbox != "" {
				sb = "  sandbox=" + t.Sandbox
			}
			if t.Finished != "" {
				sb += "  finished " + textsafe.Line(t.Finished)
			}
			fmt.Fprintf(w, "  %s %s %s  %s  [%s]%s\n", mark, textsafe.Line(planparse.DisplayID(planparse.TaskID(t.ID), t.Label)), t.Commit.Short(), gateSummary(t.Gates), t.Evidence, sb)
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
			fmt.Fprintln(w, textsafe.Indent(f.Diff, "    "))
		}
	}
	writeRerunText(w, rep)
	if errs == 0 {
		fmt.Fprintf(w, "verify: ok (%d warning(s))\n", warns)
		return
	}
	fmt.Fprintf(w, "verify: %d error(s), %d warning(s)\n", errs, warns)
}

func writeRerunText(w io.Writer, rep review.Report) {
	if len(rep.Gates) == 0 {
		return
	}
	fmt.Fprintf(w, "gates re-run (definitions: %s):\n", rep.GateSource)
	for _, g := range rep.Gates {
		v := "pass"
		switch {
		case g.Cached:
			v = "pass on this tree before; not re-run"
		case !g.Passed:
			v = fmt.Sprintf("FAIL (exit %d)", g.ExitCode)
		}
		fmt.Fprintf(w, "  %s %s %s: %s", g.Task, g.Commit.Short(), g.Name, v)
		if !g.Cached {
			fmt.Fprintf(w, ", %dms", g.DurationMS)
		}
		fmt.Fprintln(w)
		if !g.Passed && g.Tail != "" {
			fmt.Fprintln(w, textsafe.Indent(g.Tail, "    | "))
		}
	}
}
