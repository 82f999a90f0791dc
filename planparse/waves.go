package planparse

import "strings"

// Waves groups tasks, given in execution order (Order, less the tasks not
// to run), into waves: consecutive tasks that may run at the same time.
// Two tasks share a wave only when both are parallel-safe (safe(t), which
// defaults to t.Parallel: `[P]`, `Parallel: yes`), neither depends on the
// other and no file one declares overlaps a file the other declares (the
// same path, or a directory above it). A task that is not parallel-safe is
// a wave of its own. Concatenated, the waves are the input in its order,
// so committing wave by wave in order keeps the plan's commit order.
//
// Tasks without declared files are grouped on the strength of their marker
// alone: the integration's three-way merge still catches a real overlap.
func Waves(tasks []*Task, safe func(*Task) bool) [][]*Task {
	if safe == nil {
		safe = func(t *Task) bool { return t.Parallel }
	}
	var waves [][]*Task
	var cur []*Task
	for _, t := range tasks {
		if len(cur) > 0 && safe(t) && safe(cur[0]) && joins(cur, t) {
			cur = append(cur, t)
			continue
		}
		if len(cur) > 0 {
			waves = append(waves, cur)
		}
		cur = []*Task{t}
	}
	if len(cur) > 0 {
		waves = append(waves, cur)
	}
	return waves
}

// joins reports whether t may run alongside every task of wave: it depends
// on none of them and declares no file they declare. (A dependency of t on
// a task of the wave through a task outside it cannot happen: that task
// would sit between them in execution order and have closed the wave.)
func joins(wave []*Task, t *Task) bool {
	for _, w := range wave {
		for _, d := range t.DependsOn {
			if d == w.ID {
				return false
			}
		}
		for _, d := range w.DependsOn {
			if d == t.ID {
				return false
			}
		}
		for _, a := range t.Files {
			for _, b := range w.Files {
				if overlaps(a.Path, b.Path) {
					return false
				}
			}
		}
	}
	return true
}

// overlaps reports whether two declared paths can name the same file.
func overlaps(a, b string) bool {
	a, b = strings.TrimSuffix(a, "/"), strings.TrimSuffix(b, "/")
	return a == b || strings.HasPrefix(a, b+"/") || strings.HasPrefix(b, a+"/")
}
