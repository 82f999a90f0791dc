package runplan

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// DryRun prints the order, steps, gates, acceptance commands and agent a run
// would use, each with its risk, what it leaves out and why, and changes
// nothing. Everything taken from the plan or the configuration is escaped
// for the terminal: what is shown is what runs. inRepo is false for a plan
// outside a git repository.
func (s *Setup) DryRun(ctx context.Context, w io.Writer, planRel string, inRepo bool, sel *Selection) {
	tasks := sel.Run
	fmt.Fprintf(w, "planx: dry run of %s (%s): %d task(s) would run", textsafe.Line(planRel), s.Plan.Format, len(tasks))
	if sel.Done > 0 {
		fmt.Fprintf(w, ", %d done", sel.Done)
	}
	fmt.Fprintln(w)
	if !inRepo {
		fmt.Fprintln(w, "not in a git repository: a run needs one (git init), for its rollback commit and one commit per task")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ORDER\tTASK\tEXECUTOR\tSTEPS\tGATES\tTITLE")
	for i, t := range tasks {
		sel := gates.Select(s.Gates, t.Gates, i == len(tasks)-1)
		var names []string
		for _, g := range sel {
			names = append(names, g.Name)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\n", i+1, textsafe.Line(t.DisplayID()), textsafe.Line(string(s.Executor(t))), len(t.Steps),
			textsafe.Line(cmp.Or(strings.Join(names, ","), "-")), textsafe.Line(textsafe.Shorten(taskName(s.Plan, t), 50)))
	}
	_ = tw.Flush()
	for _, t := range sel.Optional {
		fmt.Fprintf(w, "  left out: %s %s (optional; --optional runs it)\n", textsafe.Line(t.DisplayID()), textsafe.Line(textsafe.Shorten(t.Title, 50)))
	}
	for _, t := range sel.Outside {
		fmt.Fprintf(w, "  left out: %s %s (not selected: --only, --from, --to, --phase)\n", textsafe.Line(t.DisplayID()), textsafe.Line(textsafe.Shorten(t.Title, 50)))
	}
	for _, t := range sel.ByHand {
		fmt.Fprintf(w, "  left out: %s %s (ticked by hand, no task commit)\n", textsafe.Line(t.DisplayID()), textsafe.Line(textsafe.Shorten(t.Title, 50)))
	}
	for _, d := range sel.Drift {
		fmt.Fprintf(w, "  drift: %s\n", strings.ReplaceAll(textsafe.Block(d.String()), "\n", "\n  "))
	}
	fmt.Fprintln(w, "\nRisk (docs/risk.md; HIGH and CRITICAL need --yes, a confirmation or planx approve):")
	as, rp := s.Assess(ctx, tasks), s.riskRepo(ctx)
	risk.Table(w, as)
	for _, a := range as {
		t := a.Task
		for i, s := range t.Steps {
			fmt.Fprintf(w, "\n%s step %d (plan line %d, %s):\n%s\n", t.ID, i+1, s.Line, textsafe.Line(s.Lang), textsafe.Indent(textsafe.Block(s.Code), "    "))
		}
		if t.BlastRadius != "" {
			fmt.Fprintf(w, "\n%s blast radius (inserted unquoted into gate commands): %s\n", t.ID, textsafe.Line(t.BlastRadius))
		}
		for _, c := range a.Commands {
			if c.Kind == risk.KindGate && c.Code == s.gateCommand(c.Name) {
				continue // listed once below, as it runs
			}
			fmt.Fprintf(w, "\n%s %s:\n%s\n", t.ID, textsafe.Line(rp.Describe(c)), textsafe.Indent(textsafe.Block(c.Code), "    "))
		}
	}
	if len(s.Gates) > 0 {
		fmt.Fprintln(w, "\nGates (run with bash -o pipefail; {blast_radius} is each task's radius):")
		for _, g := range s.Gates {
			c := risk.Command{Kind: risk.KindGate, Name: g.Name, Origin: s.gateOrigin(g.Name), Code: g.Command}
			timeout := g.Timeout
			if timeout == 0 {
				timeout = gates.DefaultTimeout
			}
			fmt.Fprintf(w, "  %s, %s, timeout %s:\n%s\n", textsafe.Line(rp.Describe(c)), cmp.Or(string(g.When), "each"),
				timeout, textsafe.Indent(textsafe.Block(g.Command), "    "))
		}
	}
}

// taskName is the title with the group it belongs to:
// "Add the parser (in 1 (T001) Set up the project)".
func taskName(p *planparse.Plan, t *planparse.Task) string {
	s := t.Title
	if par := p.Task(t.Parent); par != nil {
		s += " (in " + par.DisplayID() + " " + par.Title + ")"
	}
	return s
}

// gateCommand is the command of the gate named name, as configured.
func (s *Setup) gateCommand(name string) string {
	for _, g := range s.Gates {
		if g.Name == name {
			return g.Command
		}
	}
	return ""
}
