package planparse

import "slices"

// CompletedGroups lists the groups that t's commit completes: each
// ancestor whose sub-tasks are all done (committed) once t is (optional
// ones aside unless optional: --optional), innermost first. task looks a
// task of the plan up by id (Plan.Task, or an index of the plan's tasks).
func CompletedGroups(task func(TaskID) *Task, t *Task, committed map[TaskID]bool, optional bool) []*Task {
	var out []*Task
	done := func(id TaskID) bool { return id == t.ID || committed[id] }
	for p := task(t.Parent); p != nil; p = task(p.Parent) {
		for _, id := range p.Children {
			c := task(id)
			if c == nil || done(id) || (c.Optional && !optional) {
				continue
			}
			if len(c.Children) > 0 && slices.Contains(out, c) {
				continue
			}
			return out
		}
		out = append(out, p)
	}
	return out
}
