package planparse

import (
	"fmt"
	"strings"
)

func (b *builder) validate() {
	p := b.p
	if len(p.Tasks) == 0 {
		b.diag(SeverityWarning, 0, "no tasks found",
			"write tasks as `### T001: Title` headings or `- [ ] T001 Title` lines (see docs/plan-format.md)")
		return
	}
	index := make(map[TaskID]int, len(p.Tasks))
	labels := map[string]int{}
	for i, t := range p.Tasks {
		if j, dup := index[t.ID]; dup {
			b.diag(SeverityError, t.Line, fmt.Sprintf("duplicate task ID %s (first used on line %d)", t.ID, p.Tasks[j].Line),
				"give every task its own ID")
		} else {
			index[t.ID] = i
		}
		if !b.tids && t.Label != "" {
			k := refKey(t.Label)
			if j, dup := labels[k]; dup {
				b.diag(SeverityWarning, t.Line, fmt.Sprintf("label %q is used again (first on line %d); it is task %s here", t.Label, p.Tasks[j].Line, t.ID),
					"references to the label resolve to the first task that carries it")
			} else {
				labels[k] = i
			}
		}
		b.checkTask(t)
	}
	for i, t := range p.Tasks {
		for _, dep := range t.DependsOn {
			if j, ok := index[dep]; ok && j > i {
				b.diag(SeverityWarning, t.Line, fmt.Sprintf("%s depends on %s, which comes later in the plan (line %d)", t.ID, dep, p.Tasks[j].Line),
					"move the dependency above the task so the plan reads in execution order")
			}
		}
	}
	b.cycles(index)
	b.executable()
}

func (b *builder) checkTask(t *Task) {
	for _, f := range t.Files {
		if escapes(f.Path) {
			b.diag(SeverityError, b.lineOf(t, "file:"+f.Path), fmt.Sprintf("%s declares file %q outside the repository", t.ID, f.Path),
				"declare files relative to the repository root, without ../ or a leading /")
		} else if inGitDir(f.Path) {
			b.diag(SeverityError, b.lineOf(t, "file:"+f.Path), fmt.Sprintf("%s declares file %q inside .git/, which is never a task's output", t.ID, f.Path),
				"a task changes the work tree; planx makes the commits and git owns .git/")
		}
	}
	if t.Executor != "" && !validExecutor(t.Executor) {
		b.diag(SeverityError, t.Line, fmt.Sprintf("%s: executor %q is not shell, agent or manual", t.ID, t.Executor),
			"write Executor: shell, agent or manual")
	}
	if len(t.Gates) > 0 {
		known := map[string]bool{}
		for _, g := range b.p.Gates {
			known[g.Name] = true
		}
		for _, g := range t.Gates {
			switch {
			case len(b.p.Gates) == 0:
				b.diag(SeverityWarning, t.Line, fmt.Sprintf("%s selects gate %q but the plan declares no gates", t.ID, g),
					"declare gates in the front matter: gates: [{name: "+g+", command: ...}]")
			case !known[g]:
				b.diag(SeverityError, t.Line, fmt.Sprintf("%s selects unknown gate %q", t.ID, g),
					"use a gate name declared in the front matter")
			}
		}
	}
}

// cycles reports every dependency cycle once, naming its tasks and lines.
func (b *builder) cycles(index map[TaskID]int) {
	tasks := b.p.Tasks
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, len(tasks))
	var stack []int
	var visit func(i int)
	visit = func(i int) {
		color[i] = grey
		stack = append(stack, i)
		for _, dep := range tasks[i].DependsOn {
			j, ok := index[dep]
			if !ok {
				continue
			}
			switch color[j] {
			case white:
				visit(j)
			case grey:
				b.reportCycle(stack, j)
			}
		}
		stack = stack[:len(stack)-1]
		color[i] = black
	}
	for i := range tasks {
		if color[i] == white {
			visit(i)
		}
	}
}

// reportCycle names the cycle closing at stack entry j, in dependency
// order: each task is followed by the task it depends on.
func (b *builder) reportCycle(stack []int, j int) {
	k := len(stack) - 1
	for k >= 0 && stack[k] != j {
		k--
	}
	var parts []string
	for _, i := range stack[k:] {
		t := b.p.Tasks[i]
		parts = append(parts, fmt.Sprintf("%s (line %d)", t.ID, t.Line))
	}
	parts = append(parts, string(b.p.Tasks[j].ID))
	b.diag(SeverityError, b.p.Tasks[j].Line, "dependency cycle: "+strings.Join(parts, " -> "),
		"remove one of these dependencies; a task cannot wait for itself")
}

// executable warns once about open tasks that planx could not run: no
// `run` step and no agent or manual executor to hand them to.
func (b *builder) executable() {
	p := b.p
	if p.Agent != "" || b.defaults.Agent != "" {
		return
	}
	if e := Kind(firstSet(p.Executor, b.defaults.Executor)); e == KindAgent || e == KindManual {
		return
	}
	var ids []string
	first, n := 0, 0
	for _, t := range p.Tasks {
		if t.Status == StatusDone || t.Checkpoint || len(t.Children) > 0 || t.Optional || t.Executable() || Kind(t.Executor) == KindAgent || Kind(t.Executor) == KindManual {
			continue
		}
		if n++; first == 0 {
			first = t.Line
		}
		if len(ids) < 5 {
			ids = append(ids, fmt.Sprintf("%s (line %d)", t.ID, t.Line))
		}
	}
	if n == 0 {
		return
	}
	more := ""
	if n > len(ids) {
		more = fmt.Sprintf(" and %d more", n-len(ids))
	}
	hint := "add a ```sh run block, set `Executor: agent` or `manual` on the task, or set agent/executor in the front matter or .planx.yaml"
	if p.Format == FormatTaskMaster {
		// tasks.json and task_NNN.txt have no front matter nor task fields of planx's.
		hint = "set `agent: <command>` (or `executor: manual`) in .planx.yaml"
	}
	b.diag(SeverityWarning, first, fmt.Sprintf("%d open task(s) have no `run` step and no agent or manual executor: %s%s",
		n, strings.Join(ids, ", "), more), hint)
}

// firstSet is the first of vs that is not empty.
func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// Executable reports whether the task has steps planx can run itself.
func (t *Task) Executable() bool { return len(t.Steps) > 0 }

// Task returns the task with the given ID, or nil.
func (p *Plan) Task(id TaskID) *Task {
	for _, t := range p.Tasks {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// InvalidError lists a plan's error diagnostics. It wraps ErrInvalid.
type InvalidError struct {
	Path        string
	Diagnostics []Diagnostic
}

func (e *InvalidError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %v: %d error(s)", e.Path, ErrInvalid, len(e.Diagnostics))
	for _, d := range e.Diagnostics {
		fmt.Fprintf(&sb, "\n%s:%d: %s", e.Path, d.Line, d.Message)
		if d.Hint != "" {
			fmt.Fprintf(&sb, " (%s)", d.Hint)
		}
	}
	return sb.String()
}

func (e *InvalidError) Unwrap() error { return ErrInvalid }

// Err returns nil when the plan has no error diagnostics, otherwise an
// *InvalidError wrapping ErrInvalid that names path:line for each error.
func (p *Plan) Err() error {
	var errs []Diagnostic
	for _, d := range p.Diagnostics {
		if d.Severity == SeverityError {
			errs = append(errs, d)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return &InvalidError{Path: p.Path, Diagnostics: errs}
}
