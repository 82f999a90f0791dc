package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/run/handoff"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// taskGates are, by task, the gates its own run in its slot must have
// passed: those it selects of the run's pinned gates, the final ones
// aside (they run on the integrated tree) and the fixers (which change
// the work rather than judge it), as the plan at the run's tip says.
func taskGates(root string, st *runstate.State) (func(string) []string, error) {
	plan, err := planparse.ParseFile(filepath.Join(root, filepath.FromSlash(st.PlanPath)), planparse.Options{Format: planparse.Format(st.Options.Format)})
	if err != nil {
		return nil, err
	}
	return func(task string) []string {
		t := plan.Task(planparse.TaskID(task))
		if t == nil || st.Pinned == nil {
			return nil
		}
		var names []string
		for _, g := range gates.Select(st.Pinned.Gates, t.Gates, false) {
			if !g.Fix {
				names = append(names, g.Name)
			}
		}
		return names
	}, nil
}

// sayTaken says what the landing of wave made of each task job's result:
// a line each on stdout, and on GitHub Actions a table in the job's
// summary with each task job's time for its task and what its agent
// reported spending, so that a wave's cost is read where it is reviewed.
func sayTaken(stdio *IO, wave int, taken []handoff.Taken) error {
	for _, tk := range taken {
		if tk.Work == "" {
			fmt.Fprintf(stdio.Out, "planx: %s: %s\n", tk.Task, tk.Why)
			continue
		}
		fmt.Fprintf(stdio.Out, "planx: %s: its task job's result is taken (work %s, %s in its job)\n", tk.Task, tk.Work.Short(), tk.Wall.Round(time.Millisecond))
	}
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if os.Getenv("GITHUB_ACTIONS") != "true" || path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("ci land: the step summary: %w", err)
	}
	_, err = f.WriteString(takenSummary(wave, taken))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("ci land: the step summary: %w", err)
	}
	return nil
}

// takenSummary is the landing's table of its wave's task jobs.
func takenSummary(wave int, taken []handoff.Taken) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### planx: wave %d's task jobs\n\n| task | result | time in its job | cost |\n|---|---|---|---|\n", wave)
	var total time.Duration
	for _, tk := range taken {
		if tk.Work == "" {
			fmt.Fprintf(&b, "| %s | **not taken**: %s | | |\n", tk.Task, mdCell(tk.Why))
			continue
		}
		cost := "-"
		if !tk.Cost.IsZero() {
			cost = tk.Cost.String()
		}
		total += tk.Wall
		fmt.Fprintf(&b, "| %s | work `%s` | %s | %s |\n", tk.Task, tk.Work.Short(), tk.Wall.Round(time.Millisecond), mdCell(cost))
	}
	fmt.Fprintf(&b, "\nThe task jobs' time, added up: %s.\n\n", total.Round(time.Millisecond))
	return b.String()
}
