package executor

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstate"
)

// The commit subject keeps planx's ID; the plan's own goes in Planx-Label,
// written only when the two differ.
func TestTaskMessageLabelTrailer(t *testing.T) {
	r := &runner{st: &runstate.State{RunID: "20260101-000000-abcdef"}}
	r.planRel = "tasks.md"
	lt := &execlog.Task{Executor: "shell"}
	msg := taskMessage(r, &planparse.Task{ID: "T003", Label: "1.2", Title: "Add a README"}, lt, nil, nil, nil, true)
	if !strings.HasPrefix(msg, "T003: Add a README\n") || !strings.Contains(msg, "\n"+record.TrailerLabel+": 1.2\n") ||
		!strings.Contains(msg, "Task 1.2 (T003) of plan tasks.md") {
		t.Errorf("message:\n%s", msg)
	}
	msg = taskMessage(r, &planparse.Task{ID: "T003", Label: "T003", Title: "Add a README"}, lt, nil, nil, nil, true)
	if strings.Contains(msg, record.TrailerLabel) {
		t.Errorf("label equal to the ID written:\n%s", msg)
	}
}

// status reports the label of a task that has one, and none for a task the
// plan calls by its ID.
func TestTaskStatusesCarryLabels(t *testing.T) {
	plan, err := planparse.Parse("tasks.md", []byte("- [ ] 1. Set up\n  - [ ] 1.1 Create the layout\n"), planparse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := &runstate.State{ToRun: []planparse.TaskID{"T002"}}
	h := &history{commits: map[planparse.TaskID]gitops.Commit{}, skipped: map[planparse.TaskID]bool{}}
	ts := taskStatuses(st, plan, h, record.RunFailed)
	if len(ts) != 2 || ts[0].Label != "1" || ts[1].Label != "1.1" {
		t.Errorf("statuses %+v", ts)
	}
	native, _ := planparse.Parse("plan.md", []byte("### T001: A\n"), planparse.Options{})
	if ts := taskStatuses(st, native, h, record.RunFailed); len(ts) != 1 || ts[0].Label != "" {
		t.Errorf("native statuses %+v", ts)
	}
}
