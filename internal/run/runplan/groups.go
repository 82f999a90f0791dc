package runplan

import (
	"slices"

	"github.com/planx-dev/planx/planparse"
)

// CompletedGroups lists the groups that t's commit completes: each
// ancestor whose sub-tasks are all done (committed) once t is (optional
// ones aside unless optional: --optional), innermost first.
func (s *Setup) CompletedGroups(t *planparse.Task, committed map[planparse.TaskID]bool, optional bool) []*planparse.Task {
	var out []*planparse.Task
	done := func(id planparse.TaskID) bool { return id == t.ID || committed[id] }
	for p := s.Task(t.Parent); p != nil; p = s.Task(p.Parent) {
		for _, id := range p.Children {
			c := s.Task(id)
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
