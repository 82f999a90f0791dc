package execlog

import (
	"fmt"
	"github.com/planx-dev/planx/internal/record"
	"strings"
)

// gateMatrix renders every gate run as a task × gate table, columns in the
// order the gates first ran.
func (l *Log) gateMatrix(b *strings.Builder, es []*entry) {
	b.WriteString("## Gate Results\n\n")
	var names []string
	seen := map[string]bool{}
	for _, t := range l.Tasks {
		for _, g := range t.Gates {
			if !seen[g.Name] {
				seen[g.Name] = true
				names = append(names, g.Name)
			}
		}
	}
	if len(names) == 0 {
		b.WriteString("No gates have run.\n\n")
		return
	}
	b.WriteString("| Task |")
	for _, n := range names {
		fmt.Fprintf(b, " %s |", cell(n))
	}
	b.WriteString("\n|------|" + strings.Repeat("------|", len(names)) + "\n")
	for i := range l.Tasks {
		if len(l.Tasks[i].Gates) > 0 {
			b.Write(es[i].matrixOf(&l.Tasks[i], names))
		}
	}
	b.WriteString("\n")
}

// matrixRow is the task's row of the gate matrix with the columns names.
func (t *Task) matrixRow(b *strings.Builder, names []string) {
	fmt.Fprintf(b, "| %s |", cell(t.name()))
	for _, n := range names {
		r := "—"
		// The last result of a gate counts: a resumed task reruns its gates.
		for _, g := range t.Gates {
			if g.Name == n {
				r = verdict(g) + " " + formatDuration(g.Duration)
			}
		}
		fmt.Fprintf(b, " %s |", r)
	}
	b.WriteString("\n")
}

func (l *Log) issues(b *strings.Builder) {
	b.WriteString("## Issues & Resolutions\n\n")
	if len(l.Issues) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	for _, is := range l.Issues {
		b.WriteString("- ")
		if is.Task != "" {
			fmt.Fprintf(b, "**%s** ", text(is.Task))
		}
		if !is.Time.IsZero() {
			fmt.Fprintf(b, "(%s) ", formatTime(is.Time))
		}
		b.WriteString(text(is.What))
		res := "open"
		if is.Resolution != "" {
			res = text(is.Resolution)
		}
		fmt.Fprintf(b, " — **Resolution:** %s\n", res)
	}
	b.WriteString("\n")
}

func (l *Log) summary(b *strings.Builder) {
	b.WriteString("## Summary\n\n")
	count := map[record.TaskStatus]int{}
	for _, t := range l.Tasks {
		count[t.Status]++
	}
	// The tasks not started yet have no entry: they are pending too.
	total := max(len(l.Tasks), l.Total)
	pending := count[record.TaskPending] + total - len(l.Tasks)
	fmt.Fprintf(b, "- **Tasks:** %d total — %d done, %d failed, %d skipped, %d pending",
		total, count[record.TaskDone], count[record.TaskFailed], count[record.TaskSkipped], pending)
	for _, s := range []record.TaskStatus{record.TaskRunning, record.TaskWaiting, record.TaskInterrupted} {
		if count[s] > 0 {
			fmt.Fprintf(b, ", %d %s", count[s], s)
		}
	}
	b.WriteString("\n")
	if !l.Finished.IsZero() && !l.Started.IsZero() {
		fmt.Fprintf(b, "- **Duration:** %s\n", formatDuration(l.Finished.Sub(l.Started)))
	}
	if next := l.next(); next != "" {
		fmt.Fprintf(b, "- **Next step:** %s\n", next)
	}
}

// next is the advice for the person reading the log of a run that did not
// complete.
func (l *Log) next() string {
	stopped := l.Status == record.RunFailed || l.Status == record.RunWaiting || l.Status == record.RunInterrupted
	if l.NextStep != "" && stopped {
		// What the run said at its stop; a resumed, completed or aborted
		// run has gone past it.
		return text(l.NextStep)
	}
	// Not git reset --hard: it would leave the run locked and discard what
	// a person changed since; planx abort takes the run out and keeps both.
	undo := " To undo the whole run instead: " + code("planx abort") + "."
	switch l.Status {
	case record.RunCompleted:
		return ""
	case record.RunFailed:
		if t := l.firstWith(record.TaskFailed); t != nil {
			return fmt.Sprintf("fix %s (its changes are still in the work tree), then run %s.%s", text(t.name()), code("planx resume"), undo)
		}
		return "fix the failure above, then run " + code("planx resume") + "." + undo
	case record.RunWaiting:
		if t := l.firstWith(record.TaskWaiting); t != nil {
			return fmt.Sprintf("%s is a manual task: do it, then run %s.", text(t.name()), code("planx resume"))
		}
		return "do the manual task, then run " + code("planx resume") + "."
	case record.RunInterrupted:
		return "run " + code("planx resume") + " to continue where the run stopped." + undo
	case record.RunAborted:
		return "the run was aborted: HEAD, the index and the work tree are back as they were before it."
	case record.RunRunning:
		return "the run is in progress."
	}
	return ""
}

func (l *Log) firstWith(status record.TaskStatus) *Task {
	for i := range l.Tasks {
		if l.Tasks[i].Status == status {
			return &l.Tasks[i]
		}
	}
	return nil
}
