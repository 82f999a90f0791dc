package executor

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/risk"
)

// dryRun prints the order, steps and gates a run would use, and changes nothing.
func (r *runner) dryRun(sel *selection) {
	tasks := sel.run
	w := r.o.Out
	fmt.Fprintf(w, "planx: dry run of %s (%s): %d task(s) would run", r.planRel, r.plan.Format, len(tasks))
	if sel.done > 0 {
		fmt.Fprintf(w, ", %d done", sel.done)
	}
	fmt.Fprintln(w)
	if r.repo == nil {
		fmt.Fprintln(w, "not in a git repository: a run needs one (git init), for its rollback commit and one commit per task")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ORDER\tTASK\tEXECUTOR\tSTEPS\tGATES\tTITLE")
	for i, t := range tasks {
		sel := gates.Select(r.gates, t.Gates, i == len(tasks)-1)
		var names []string
		for _, g := range sel {
			names = append(names, g.Name)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\n", i+1, t.ID, r.executorFor(t), len(t.Steps),
			firstNonEmpty(strings.Join(names, ","), "-"), oneLine(taskName(r.plan, t), 50))
	}
	_ = tw.Flush()
	for _, t := range sel.optional {
		fmt.Fprintf(w, "  left out: %s %s (optional; --optional runs it)\n", t.ID, oneLine(t.Title, 50))
	}
	for _, t := range sel.byHand {
		fmt.Fprintf(w, "  left out: %s %s (ticked by hand, no task commit)\n", t.ID, oneLine(t.Title, 50))
	}
	for _, d := range sel.drift {
		fmt.Fprintf(w, "  drift: %s\n", strings.ReplaceAll(d.String(), "\n", "\n  "))
	}
	fmt.Fprintln(w, "\nRisk (docs/risk.md; HIGH and CRITICAL need --yes, a confirmation or planx approve):")
	risk.Table(w, tasks)
	for _, t := range tasks {
		for i, s := range t.Steps {
			fmt.Fprintf(w, "\n%s step %d (plan line %d, %s):\n%s\n", t.ID, i+1, s.Line, s.Lang, indent(s.Code, "    "))
		}
	}
	if len(r.gates) > 0 {
		fmt.Fprintln(w, "\nGates:")
		for _, g := range r.gates {
			fmt.Fprintf(w, "  %s (%s, timeout %s): %s\n", g.Name, firstNonEmpty(string(g.When), "each"), g.Timeout, g.Command)
		}
	}
}

// taskName is the title with the label and the group it belongs to:
// "1.2 Add the parser (in 1 Set up the project)".
func taskName(p *planparse.Plan, t *planparse.Task) string {
	s := t.Title
	if t.Label != "" && t.Label != string(t.ID) {
		s = t.Label + " " + s
	}
	if par := p.Task(t.Parent); par != nil {
		s += " (in " + strings.TrimSpace(par.Label+" "+par.Title) + ")"
	}
	return s
}
