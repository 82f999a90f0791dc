package executor

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runplan"
)

// TestCompletedGroups checks which groups a sub-task's commit completes:
// nested groups close from the inside out, optional sub-tasks do not hold
// a group open unless --optional, and a group with work left stays open.
func TestCompletedGroups(t *testing.T) {
	src := `# Plan

- [ ] 1. Outer
  - [ ] 1.1 Inner
    - [ ] 1.1.1 First leaf
    - [ ] 1.1.2 Second leaf
  - [ ] 1.2 Last leaf
  - [ ]* 1.3 Optional leaf
`
	plan, err := planparse.Parse("tasks.md", []byte(src), planparse.Options{})
	if err != nil || plan.Err() != nil {
		t.Fatal(err, plan.Err())
	}
	byLabel := map[string]*planparse.Task{}
	for _, tk := range plan.Tasks {
		byLabel[tk.Label] = tk
	}
	names := func(ts []*planparse.Task) string {
		var s []string
		for _, tk := range ts {
			s = append(s, tk.Label)
		}
		return strings.Join(s, ",")
	}
	r := &runner{Setup: &runplan.Setup{Plan: plan}, done: map[planparse.TaskID]bool{}}
	if got := names(r.completedGroups(byLabel["1.1.1"])); got != "" {
		t.Errorf("first leaf completes %q, want nothing", got)
	}
	r.done[byLabel["1.1.1"].ID] = true
	if got := names(r.completedGroups(byLabel["1.1.2"])); got != "1.1" {
		t.Errorf("second leaf completes %q, want 1.1", got)
	}
	r.done[byLabel["1.1.2"].ID], r.done[byLabel["1.1"].ID] = true, true
	if got := names(r.completedGroups(byLabel["1.2"])); got != "1" {
		t.Errorf("last leaf completes %q, want 1 (the optional leaf left out)", got)
	}
	r.o.Optional = true
	if got := names(r.completedGroups(byLabel["1.2"])); got != "" {
		t.Errorf("with --optional the last leaf completes %q, want nothing", got)
	}
	if got := names(r.completedGroups(byLabel["1.3"])); got != "" {
		t.Errorf("optional leaf before 1.2 completes %q, want nothing", got)
	}
	r.done[byLabel["1.2"].ID] = true
	if got := names(r.completedGroups(byLabel["1.3"])); got != "1" {
		t.Errorf("optional leaf after 1.2 completes %q, want 1", got)
	}
	// The inner group's last leaf can close both groups at once.
	r = &runner{Setup: &runplan.Setup{Plan: plan}, done: map[planparse.TaskID]bool{byLabel["1.1.1"].ID: true, byLabel["1.2"].ID: true}}
	if got := names(r.completedGroups(byLabel["1.1.2"])); got != "1.1,1" {
		t.Errorf("1.1.2 last completes %q, want 1.1,1", got)
	}
}
