package recovery

import (
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// status reports the label of a task that has one, and none for a task the
// plan calls by its ID.
func TestTaskStatusesCarryLabels(t *testing.T) {
	t.Parallel()
	plan, err := planparse.Parse("tasks.md", []byte("- [ ] 1. Set up\n  - [ ] 1.1 Create the layout\n"), planparse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := &runstate.State{ToRun: []planparse.TaskID{"T002"}}
	h := &History{Commits: map[planparse.TaskID]gitops.Commit{}, Skipped: map[planparse.TaskID]bool{}}
	ts := taskStatuses(st, plan, h, record.RunFailed)
	if len(ts) != 2 || ts[0].Label != "1" || ts[1].Label != "1.1" {
		t.Errorf("statuses %+v", ts)
	}
	native, _ := planparse.Parse("plan.md", []byte("### T001: A\n"), planparse.Options{})
	if ts := taskStatuses(st, native, h, record.RunFailed); len(ts) != 1 || ts[0].Label != "" {
		t.Errorf("native statuses %+v", ts)
	}
}
