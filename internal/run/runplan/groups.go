package runplan

import "github.com/planx-dev/planx/planparse"

// CompletedGroups lists the groups that t's commit completes
// (planparse.CompletedGroups), looked up through the setup's index.
func (s *Setup) CompletedGroups(t *planparse.Task, committed map[planparse.TaskID]bool, optional bool) []*planparse.Task {
	return planparse.CompletedGroups(s.Task, t, committed, optional)
}
