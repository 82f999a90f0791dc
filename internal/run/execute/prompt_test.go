package execute

import (
	"slices"
	"testing"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// The prompt's context: the tasks the log has done (and only those the
// plan still has), the gates the task selects, its acceptance commands,
// the groups around it outermost first with its phase's introduction
// before them, and the protected files as given.
func TestPromptContext(t *testing.T) {
	group := &planparse.Task{ID: "G1", Title: "group"}
	done := &planparse.Task{ID: "T1", Title: "first"}
	task := &planparse.Task{ID: "T2", Title: "second", Parent: "G1", Phase: "Build",
		Gates: []string{"unit"}, Acceptance: []string{"`go test ./x`", "it works"}}
	plan := &planparse.Plan{Title: "the goal", Tasks: []*planparse.Task{group, done, task},
		Phases: []planparse.Phase{{Title: "Build", Intro: "why we build\nand how"}}}
	p := Prompt{Plan: plan, PlanPath: "plan.md", Root: t.TempDir(),
		Tasks:     []execlog.Task{{ID: "T1", Status: record.TaskDone}, {ID: "T9", Status: record.TaskDone}, {ID: "T2"}},
		Gates:     []gates.Gate{{Name: "unit", Command: "go test ./..."}, {Name: "lint", Command: "go vet ./..."}},
		Protected: []string{"plan.md", ".planx.yaml"}}
	c := p.Context(task, 2, "it failed")
	if c.Goal != "the goal" || c.PlanPath != "plan.md" || c.Attempt != 2 || c.Feedback != "it failed" || c.Repo != p.Root {
		t.Errorf("context = %+v", c)
	}
	if len(c.Done) != 1 || c.Done[0] != done {
		t.Errorf("done = %v, want T1 alone", c.Done)
	}
	if want := []string{"unit: go test ./..."}; !slices.Equal(c.Gates, want) {
		t.Errorf("gates = %q, want %q", c.Gates, want)
	}
	if want := []string{"go test ./x"}; !slices.Equal(c.Checks, want) {
		t.Errorf("checks = %q, want %q", c.Checks, want)
	}
	if len(c.Groups) != 2 || c.Groups[0].Title != "Build" || c.Groups[0].Body != "why we build\nand how" || c.Groups[1] != group {
		t.Errorf("groups = %+v, want the phase, then G1", c.Groups)
	}
	if !slices.Equal(c.Protected, p.Protected) {
		t.Errorf("protected = %q", c.Protected)
	}
}
