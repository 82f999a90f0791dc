package risk

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/planx-dev/planx/planparse"
)

// Task classifies a task's run steps: the highest level over its steps, and
// every finding with Line translated to the plan file's line numbers. A task
// without steps (manual) is LOW: planx runs nothing for it.
func Task(t *planparse.Task) (Level, []Finding) {
	var all []Finding
	for _, s := range t.Steps {
		_, fs := Classify(s.Code)
		for _, f := range fs {
			if s.Line > 0 && f.Line > 0 {
				f.Line += s.Line - 1
			}
			all = append(all, f)
		}
	}
	return finish(all)
}

// Highest is the highest level over tasks.
func Highest(tasks []*planparse.Task) Level {
	l := LOW
	for _, t := range tasks {
		l = max(l, first(Task(t)))
	}
	return l
}

func first(l Level, _ []Finding) Level { return l }

// Table prints one row per task: TASK, LEVEL, and WHY (the most severe
// finding with its plan line, and how many more there are).
func Table(w io.Writer, tasks []*planparse.Task) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tLEVEL\tWHY")
	for _, t := range tasks {
		l, fs := Task(t)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", t.ID, l, Why(t, fs))
	}
	_ = tw.Flush()
}

// Why is the WHY column for a task's findings.
func Why(t *planparse.Task, fs []Finding) string {
	switch {
	case len(t.Steps) == 0:
		return "no run steps (manual)"
	case len(fs) == 0:
		return "-"
	}
	s := fmt.Sprintf("line %d: %s [%s]", fs[0].Line, fs[0].Detail, fs[0].Rule)
	if len(fs) > 1 {
		s += fmt.Sprintf(" (+%d more)", len(fs)-1)
	}
	return s
}
