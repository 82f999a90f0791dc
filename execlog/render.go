package execlog

import (
	"fmt"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
	"strconv"
	"strings"
)

// Render returns the whole markdown file. It depends only on the log's
// contents (no clock, no map order), so the same log renders to the same
// bytes and commits show only real changes.
// maxOutside is how many paths written outside the work tree a task's
// entry names; the rest are counted.
const maxOutside = 20

// outsideItem names the first maxOutside of paths, and counts the rest.
func outsideItem(paths []string) string {
	shown := paths
	if len(shown) > maxOutside {
		shown = shown[:maxOutside]
	}
	names := make([]string, len(shown))
	for i, p := range shown {
		names[i] = code(p)
	}
	if n := len(paths) - len(shown); n > 0 {
		return strings.Join(names, ", ") + fmt.Sprintf(" and %d more", n)
	}
	return strings.Join(names, ", ")
}

func (l *Log) Render() []byte {
	var b strings.Builder
	l.frontMatter(&b)
	fmt.Fprintf(&b, "# Execution Log – %s\n\n", text(l.Title))
	l.header(&b)
	l.preflight(&b)
	es := l.entries()
	l.tasks(&b, es)
	l.gateMatrix(&b, es)
	l.issues(&b)
	l.summary(&b)
	return []byte(b.String())
}

func (l *Log) frontMatter(b *strings.Builder) {
	b.WriteString("---\n")
	field := func(k, v string) { fmt.Fprintf(b, "%s: %s\n", k, strconv.Quote(v)) }
	field("title", text(l.Title)+" – Execution Log")
	b.WriteString("phase: Execute\n")
	field("topic", l.Topic)
	field("plan_path", l.PlanPath)
	field("run_id", l.RunID)
	field("start_commit", l.StartCommit)
	field("branch", l.Branch)
	field("started", formatTime(l.Started))
	if !l.Finished.IsZero() {
		field("finished", formatTime(l.Finished))
	}
	field("status", string(l.Status))
	b.WriteString("---\n\n")
}

func (l *Log) header(b *strings.Builder) {
	item := func(k, v string) {
		if v != "" {
			fmt.Fprintf(b, "- **%s:** %s\n", k, v)
		}
	}
	item("Plan", code(l.PlanPath))
	item("Branch", code(l.Branch))
	if l.StartCommit != "" {
		// The way back is planx abort while the run is stopped (it keeps
		// the edits made since and unlocks the run), not a reset to it.
		item("Rollback point", code(l.StartCommit)+" — the tree before the run; while the run is stopped, "+code("planx abort")+" undoes it")
	}
	item("Run", code(l.RunID))
	item("Started", formatTime(l.Started))
	if !l.Finished.IsZero() {
		item("Finished", formatTime(l.Finished))
	}
	item("Status", text(string(l.Status)))
	b.WriteString("\n")
}

func (l *Log) preflight(b *strings.Builder) {
	b.WriteString("## Pre-flight checks\n\n")
	if len(l.Preflight) == 0 {
		b.WriteString("None recorded.\n\n")
		return
	}
	for _, c := range l.Preflight {
		box := " "
		if c.OK {
			box = "x"
		}
		fmt.Fprintf(b, "- [%s] %s", box, text(c.Name))
		if c.Detail != "" {
			fmt.Fprintf(b, " — %s", text(c.Detail))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func (t *Task) commitCell() string {
	switch {
	case t.Commit != "":
		return code(shortSHA(t.Commit))
	case t.Status == record.TaskDone:
		return "this commit"
	}
	return "—"
}

func (l *Log) tasks(b *strings.Builder, es []*entry) {
	b.WriteString("## Tasks\n\n")
	if len(l.Tasks) == 0 {
		b.WriteString("The plan has no tasks.\n\n")
		return
	}
	b.WriteString("| Task | Status | Commit | Title |\n|------|--------|--------|-------|\n")
	for i := range l.Tasks {
		b.Write(es[i].rowOf(&l.Tasks[i]))
	}
	b.WriteString("\n")
	for i := range l.Tasks {
		if t := &l.Tasks[i]; t.started() {
			b.Write(es[i].sectionOf(t))
		}
	}
}

// row is the task's line in the task table.
func (t *Task) row(b *strings.Builder) {
	fmt.Fprintf(b, "| %s | %s | %s | %s |\n", cell(t.name()), cell(string(t.Status)), t.commitCell(), cell(t.Title))
}

// started reports whether the task gets its own section. Pending and
// skipped tasks (already done before the run) are only listed in the table.
func (t *Task) started() bool {
	switch t.Status {
	case record.TaskPending, record.TaskSkipped, "":
		return !t.Started.IsZero()
	}
	return true
}

// name is how a person reads the task: its plan's own ID beside planx's.
func (t *Task) name() string { return planparse.DisplayID(planparse.TaskID(t.ID), t.Label) }

func (t *Task) render(b *strings.Builder) {
	fmt.Fprintf(b, "### %s – %s\n\n", text(t.ID), text(t.Title))
	t.renderItems(b)
	if len(t.Commands) > 0 {
		b.WriteString("- **Commands:**\n")
		for _, c := range t.Commands {
			fmt.Fprintf(b, "  - %s %s — %s, %s\n", text(c.Name), code(c.Command), outcome(c.ExitCode, c.TimedOut), formatDuration(c.Duration))
		}
	}
	b.WriteString("\n")
	if len(t.Gates) > 0 {
		b.WriteString("| Gate | Result | Exit | Duration | Command |\n|------|--------|------|----------|---------|\n")
		for _, g := range t.Gates {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", cell(g.Name), verdict(g), exitCell(g.ExitCode), formatDuration(g.Duration), cell(code(g.Command)))
		}
		b.WriteString("\n")
	}
	if t.Failure != "" {
		// The first line says what failed; the output below it keeps its
		// lines, unless it is a failed step's or gate's, shown just after.
		first, rest, _ := strings.Cut(strings.Trim(t.Failure, "\n"), "\n")
		fmt.Fprintf(b, "**Failure:** %s\n\n", text(first))
		if rest = strings.Trim(rest, "\n"); strings.TrimSpace(rest) != "" && !t.tailShown(rest) {
			fenced(b, "text", rest)
			b.WriteString("\n")
		}
	}
	for _, c := range t.Commands {
		if (c.ExitCode != 0 || c.TimedOut) && strings.TrimSpace(c.Tail) != "" {
			fmt.Fprintf(b, "Last lines of %s:\n\n", text(c.Name))
			fenced(b, "text", c.Tail)
			b.WriteString("\n")
		}
	}
	for _, g := range t.Gates {
		if !g.Passed && strings.TrimSpace(g.Tail) != "" {
			fmt.Fprintf(b, "Last lines of gate %s", text(g.Name))
			if g.OutputPath != "" {
				fmt.Fprintf(b, " (whole output: %s)", code(g.OutputPath))
			}
			b.WriteString(":\n\n")
			fenced(b, "text", g.Tail)
			b.WriteString("\n")
		}
	}
}

// renderItems writes the task's facts as a list: status, executor,
// commit, times, files, model use, what it wrote outside its work tree.
func (t *Task) renderItems(b *strings.Builder) {
	item := func(k, v string) {
		if v != "" {
			fmt.Fprintf(b, "- **%s:** %s\n", k, v)
		}
	}
	item("Status", text(string(t.Status)))
	if t.Label != "" && t.Label != t.ID {
		item("Plan label", text(t.Label))
	}
	item("Executor", text(t.Executor))
	if c := t.commitCell(); c != "—" {
		item("Commit", c)
	}
	if !t.Started.IsZero() {
		s := formatTime(t.Started)
		if !t.Finished.IsZero() {
			s += " (" + formatDuration(t.Finished.Sub(t.Started)) + ")"
		}
		item("Started", s)
	}
	if t.Attempts > 1 {
		item("Attempts", strconv.Itoa(t.Attempts))
	}
	if len(t.Files) > 0 {
		files := make([]string, len(t.Files))
		for i, f := range t.Files {
			files[i] = code(f)
		}
		item("Files changed", strings.Join(files, ", "))
	}
	if !t.Cost.IsZero() {
		item("Model use (as the agent reported it)", text(t.Cost.String()))
	}
	if len(t.Outside) > 0 {
		item("Wrote outside the work tree or over the user's ignored files (in its task space; none of it reached the machine)", outsideItem(t.Outside))
	}
}

// tailShown says out is the last lines of a failed step or gate of t,
// which render shows under their own heading.
func (t *Task) tailShown(out string) bool {
	same := func(tail string) bool { return strings.Trim(tail, "\n") == out }
	for _, c := range t.Commands {
		if (c.ExitCode != 0 || c.TimedOut) && same(c.Tail) {
			return true
		}
	}
	for _, g := range t.Gates {
		if !g.Passed && same(g.Tail) {
			return true
		}
	}
	return false
}

func outcome(exit int, timedOut bool) string {
	switch {
	case timedOut:
		return "timed out"
	case exit < 0:
		return "killed"
	}
	return "exit " + strconv.Itoa(exit)
}

func exitCell(exit int) string {
	if exit < 0 {
		return "—"
	}
	return strconv.Itoa(exit)
}

func verdict(g Gate) string {
	switch {
	case g.Passed && len(g.Known) > 0:
		return "PASS (known failures)"
	case g.Passed:
		return "PASS"
	case g.TimedOut:
		return "**TIMEOUT**"
	}
	return "**FAIL**"
}
