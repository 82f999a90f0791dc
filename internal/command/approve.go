package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/planx-dev/planx/internal/approval"
	"github.com/planx-dev/planx/internal/prompt"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/internal/run/admit"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// approveOptions are `planx approve`'s arguments.
type approveOptions struct {
	Path   string
	Dir    string
	Format planparse.Format
	JSON   bool
	Yes    bool
	Check  bool
	out    outputOptions
}

func newApproveCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &approveOptions{}
	var format string
	return &cli.Command{
		Name:          "approve",
		ShellComplete: completePlans(g),
		Usage:         "review a plan's risk and record your approval of its exact text in git",
		ArgsUsage:     "PLAN",
		Description: describe(`approve classifies every command planx would run for the plan (steps, gates, acceptance
commands, the agent: LOW, MEDIUM, HIGH, CRITICAL; see docs/risk.md), prints the table, and
records an approval bound to the plan's task text and to its configuration (.planx.yaml gates,
agent command, environment names) as a blob under refs/planx/approvals/<plan path>,
readable with git cat-file and shareable with git push.
HIGH and CRITICAL plans ask for confirmation on a terminal; elsewhere they need --yes.
--check records nothing: it exits 0 when the plan is approved as it stands, 6 with a diff
when it changed since, 7 when it has no approval.`,
			"planx approve memory-bank/plan/x.md",
			"planx approve --check memory-bank/plan/x.md",
			"planx approve --yes --json plan.md"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "approve HIGH and CRITICAL plans without asking", Destination: &o.Yes},
			&cli.BoolFlag{Name: "check", Usage: "only tell whether the plan is approved as it stands", Destination: &o.Check},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object instead of the table", Destination: &o.JSON},
			&cli.StringFlag{Name: "format", Usage: "plan dialect; detected when unset", Destination: &format},
			ciFlag(&o.out),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 1 {
				return fmt.Errorf("%w: approve takes exactly one PLAN argument", errUsage)
			}
			var err error
			if o.Format, err = planparse.ParseFormat(format); err != nil {
				return fmt.Errorf("%w: --format: %v", errUsage, err)
			}
			o.Path, o.Dir = cmd.Args().First(), g.dir
			return dispatch(ctx, g, *o, stdio, runApprove)
		},
	}
}

// approveTask is one task's assessment, as printed by --json.
type approveTask struct {
	ID       planparse.TaskID `json:"id"`
	Title    string           `json:"title"`
	Executor string           `json:"executor"`
	Level    risk.Level       `json:"level"`
	Findings []risk.Finding   `json:"findings"`
}

type approveReport struct {
	Plan     string           `json:"plan"`
	Level    risk.Level       `json:"level"`
	Tasks    []approveTask    `json:"tasks"`
	Approved bool             `json:"approved"`
	Changed  bool             `json:"changed,omitempty"`
	Diff     string           `json:"diff,omitempty"`
	Config   string           `json:"config,omitempty"`
	Record   *approval.Record `json:"approval,omitempty"`
}

// runApprove is `planx approve` without the flag parsing.
func runApprove(ctx context.Context, o approveOptions, stdio *IO) error {
	as, err := admit.Assess(ctx, admit.Options{PlanPath: o.Path, Dir: o.Dir, Format: o.Format})
	if err != nil {
		return err
	}
	repo, rel := as.Repo, as.PlanRel
	rep := approveReport{Plan: rel, Tasks: []approveTask{}}
	for _, a := range as.Tasks {
		rep.Tasks = append(rep.Tasks, approveTask{ID: a.Task.ID, Title: a.Task.Title, Executor: a.Executor,
			Level: a.Level, Findings: append([]risk.Finding{}, a.Findings...)})
		rep.Level = max(rep.Level, a.Level)
	}
	rep.Config = as.Subject.Config
	if o.Check {
		rec, diff, cerr := approval.Check(ctx, repo, rel, as.Subject)
		rep.Record, rep.Diff = rec, diff
		rep.Approved, rep.Changed = cerr == nil, errors.Is(cerr, approval.ErrChanged)
		if !errors.Is(cerr, approval.ErrChanged) && !errors.Is(cerr, approval.ErrNotApproved) && cerr != nil {
			return cerr
		}
		if o.JSON {
			return errors.Join(approveJSON(stdio.Out, rep), cerr)
		}
		if cerr == nil {
			fmt.Fprintf(stdio.Out, "planx: %s is approved as it stands (%s, by %s at %s)\n", rel, rec.Level, rec.Approver, rec.Time.Format("2006-01-02 15:04 MST"))
		} else if diff != "" {
			fmt.Fprintf(stdio.Out, "planx: %s changed since it was approved:\n%s", rel, approval.EscapeDiff(diff))
		}
		return cerr
	}
	if !o.JSON {
		fmt.Fprintf(stdio.Out, "planx: risk of %s (%d task(s)), highest %s\n\n", rel, len(as.Tasks), rep.Level)
		risk.Table(stdio.Out, as.Tasks)
		approveSevere(stdio.Out, rep.Tasks)
		if rep.Config != "" {
			fmt.Fprintf(stdio.Out, "\nConfiguration bound to the approval (a change voids it):\n%s\n", indentLines(textsafe.Block(rep.Config), "  "))
		}
	}
	if risk.NeedsApproval(rep.Level) && !o.Yes {
		if !stdio.Terminal || o.out.isCI() || o.JSON {
			if o.JSON { // the assessment, for the tool that will have to pass --yes
				if err := approveJSON(stdio.Out, rep); err != nil {
					return err
				}
			}
			return fmt.Errorf("%w: %s has %s steps: approving it needs --yes when planx cannot ask (no terminal, --ci or --json)",
				errUsage, rel, rep.Level)
		}
		if !prompt.YesNo(stdio.In, stdio.Out, fmt.Sprintf("\nApprove %s with %s steps? [y/N] ", rel, rep.Level)) {
			return fmt.Errorf("%w: %s: declined", approval.ErrNotApproved, rel)
		}
	}
	rec, err := approval.Approve(ctx, repo, rel, as.Subject, rep.Level)
	if err != nil {
		return err
	}
	rep.Approved, rep.Record = true, &rec
	if o.JSON {
		return approveJSON(stdio.Out, rep)
	}
	fmt.Fprintf(stdio.Out, "\nplanx: approved %s (%s, sha256 %s) by %s\n  recorded as %s (%s); share it with: git push origin '%s*'\n",
		rel, rec.Level, rec.SHA256[:12], rec.Approver, rec.Ref, rec.Object.Short(), approval.RefPrefix)
	return nil
}

func indentLines(s, pre string) string {
	return pre + strings.ReplaceAll(s, "\n", "\n"+pre)
}

// approveSevere lists every finding that needs approval, not only the first
// per task the table shows: this is what the person is agreeing to.
func approveSevere(w io.Writer, tasks []approveTask) {
	header := false
	for _, t := range tasks {
		for _, f := range t.Findings {
			if !risk.NeedsApproval(f.Level) {
				continue
			}
			if !header {
				fmt.Fprintln(w, "\nNeeds approval:")
				header = true
			}
			where := fmt.Sprintf("line %d", f.Line)
			if f.Source != "" {
				where = f.Source
			}
			fmt.Fprintf(w, "  %s %s: %s %s: %s\n", t.ID, textsafe.Line(where), f.Level, f.Rule, textsafe.Line(f.Detail))
		}
	}
}

func approveJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
