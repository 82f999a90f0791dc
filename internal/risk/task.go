package risk

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Task classifies a task's run steps: the highest level over its steps, and
// every finding with Line translated to the plan file's line numbers. A task
// without steps is LOW here; Assess adds what else planx runs for it.
func Task(t *planparse.Task) (Level, []Finding) { return Repo{}.Task(t) }

// Task is the package's Task, knowing the repository.
func (rp Repo) Task(t *planparse.Task) (Level, []Finding) {
	var all []Finding
	for _, s := range t.Steps {
		_, fs := rp.Classify(s.Code)
		for _, f := range fs {
			if s.Line > 0 && f.Line > 0 {
				f.Line += s.Line - 1
			}
			all = append(all, f)
		}
	}
	return finish(all)
}

// Highest is the highest level over assessments.
func Highest(as []Assessment) Level {
	l := LOW
	for _, a := range as {
		l = max(l, a.Level)
	}
	return l
}

// Table prints one row per task: TASK, LEVEL, and WHY (the most severe
// finding with its plan line or the command it is in, and how many more
// there are). Text from the plan is escaped for the terminal.
func Table(w io.Writer, as []Assessment) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tLEVEL\tWHY")
	for _, a := range as {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", textsafe.Line(string(a.Task.ID)), a.Level, textsafe.Line(a.Why()))
	}
	_ = tw.Flush()
}

// Why is the WHY column for a task.
func (a Assessment) Why() string {
	fs := a.Findings
	if len(fs) == 0 {
		switch {
		case a.Executor == "agent":
			return "agent: " + a.agentName()
		case a.Executor == "manual" || (a.Executor == "" && len(a.Task.Steps) == 0):
			return "no run steps (manual)"
		}
		return "-"
	}
	where := fmt.Sprintf("line %d", fs[0].Line)
	if fs[0].Source != "" {
		where = fs[0].Source
		if fs[0].Line > 0 {
			where += fmt.Sprintf(", line %d", fs[0].Line)
		}
	}
	s := fmt.Sprintf("%s: %s [%s]", where, fs[0].Detail, fs[0].Rule)
	if len(fs) > 1 {
		s += fmt.Sprintf(" (+%d more)", len(fs)-1)
	}
	return s
}

func (a Assessment) agentName() string {
	for _, c := range a.Commands {
		if c.Kind == KindAgent {
			return c.Name
		}
	}
	return "none configured"
}
