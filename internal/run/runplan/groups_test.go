package runplan

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/planparse"
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
		var labels []string
		for _, tk := range ts {
			labels = append(labels, tk.Label)
		}
		return strings.Join(labels, ",")
	}
	s, done, optional := &Setup{Plan: plan}, map[planparse.TaskID]bool{}, false
	if got := names(s.CompletedGroups(byLabel["1.1.1"], done, optional)); got != "" {
		t.Errorf("first leaf completes %q, want nothing", got)
	}
	done[byLabel["1.1.1"].ID] = true
	if got := names(s.CompletedGroups(byLabel["1.1.2"], done, optional)); got != "1.1" {
		t.Errorf("second leaf completes %q, want 1.1", got)
	}
	done[byLabel["1.1.2"].ID], done[byLabel["1.1"].ID] = true, true
	if got := names(s.CompletedGroups(byLabel["1.2"], done, optional)); got != "1" {
		t.Errorf("last leaf completes %q, want 1 (the optional leaf left out)", got)
	}
	optional = true
	if got := names(s.CompletedGroups(byLabel["1.2"], done, optional)); got != "" {
		t.Errorf("with --optional the last leaf completes %q, want nothing", got)
	}
	if got := names(s.CompletedGroups(byLabel["1.3"], done, optional)); got != "" {
		t.Errorf("optional leaf before 1.2 completes %q, want nothing", got)
	}
	done[byLabel["1.2"].ID] = true
	if got := names(s.CompletedGroups(byLabel["1.3"], done, optional)); got != "1" {
		t.Errorf("optional leaf after 1.2 completes %q, want 1", got)
	}
	// The inner group's last leaf can close both groups at once.
	done, optional = map[planparse.TaskID]bool{byLabel["1.1.1"].ID: true, byLabel["1.2"].ID: true}, false
	if got := names(s.CompletedGroups(byLabel["1.1.2"], done, optional)); got != "1.1,1" {
		t.Errorf("1.1.2 last completes %q, want 1.1,1", got)
	}
}
