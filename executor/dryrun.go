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
func (r *runner) dryRun(tasks []*planparse.Task) {
	w := r.o.Out
	fmt.Fprintf(w, "planx: dry run of %s (%s): %d task(s) would run\n\n", r.planRel, r.plan.Format, len(tasks))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ORDER\tTASK\tEXECUTOR\tSTEPS\tGATES\tTITLE")
	for i, t := range tasks {
		sel := gates.Select(r.gates, t.Gates, i == len(tasks)-1)
		var names []string
		for _, g := range sel {
			names = append(names, g.Name)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\n", i+1, t.ID, r.executorFor(t), len(t.Steps),
			firstNonEmpty(strings.Join(names, ","), "-"), oneLine(t.Title, 50))
	}
	_ = tw.Flush()
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
