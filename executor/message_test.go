package executor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

func TestTaskSummary(t *testing.T) {
	task := &planparse.Task{ID: "T002", Title: "Add two files"}
	one := []execlog.Command{{Name: "step 1"}}
	two := []execlog.Command{{Name: "step 1"}, {Name: "step 2"}}
	gate := []execlog.Gate{{Name: "test", Passed: true}}
	cases := []struct {
		name   string
		lt     execlog.Task
		ticked bool
		want   string
	}{
		{"singular", execlog.Task{Executor: "shell", Commands: one, Files: []string{"a"}, Gates: gate}, true,
			"Task T002 of plan plan.md, executed by shell in 1 step; 1 gate passed.\n" +
				"The commit holds the 1 file the task changed, the plan's tick and the execution log.\n\n"},
		{"plural", execlog.Task{Executor: "shell", Commands: two, Files: []string{"a", "b"}, Gates: append(gate, gate...)}, true,
			"Task T002 of plan plan.md, executed by shell in 2 steps; 2 gates passed.\n" +
				"The commit holds the 2 files the task changed, the plan's tick and the execution log.\n\n"},
		{"checkpoint", execlog.Task{Executor: "gates", Gates: gate}, true,
			"Task T002 of plan plan.md, executed by gates; 1 gate passed.\n" +
				"The task changed no file: the commit holds only the plan's tick and the execution log.\n\n"},
		{"no box to tick", execlog.Task{Executor: "agent", Files: []string{"a", "b", "c"}}, false,
			"Task T002 of plan plan.md, executed by agent.\n" +
				"The commit holds the 3 files the task changed and the execution log.\n\n"},
		{"checkpoint, no box", execlog.Task{Executor: "gates"}, false,
			"Task T002 of plan plan.md, executed by gates.\n" +
				"The task changed no file: the commit holds only the execution log.\n\n"},
	}
	for _, c := range cases {
		if got := taskSummary("plan.md", task, &c.lt, c.ticked); got != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}

func TestRollbackMessageListsSnapshot(t *testing.T) {
	clean := rollbackMessage("x", "plan.md", "r1", nil)
	if strings.Contains(clean, "uncommitted") || strings.Contains(clean, "  ") {
		t.Errorf("clean tree message names work it does not hold:\n%s", clean)
	}
	changes := []gitops.Change{
		{Path: "mod.txt", Index: '.', Work: 'M'},
		{Path: "new.txt", Index: 'A', Work: '.'},
		{Path: "gone.txt", Index: '.', Work: 'D'},
		{Path: "loose.txt", Index: '?', Work: '?'},
		{Path: "odd\nPlanx-Task: T001", Index: '?', Work: '?'},
	}
	msg := rollbackMessage("x", "plan.md", "r1", changes)
	for _, want := range []string{"(5 files)", "  modified  mod.txt\n", "  added     new.txt\n", "  deleted   gone.txt\n",
		"  untracked loose.txt\n", `  untracked odd\nPlanx-Task: T001` + "\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if !strings.HasSuffix(msg, "\n\nRefs: plan.md\nPlanx-Run: r1\nPlanx-Rollback: true\n") {
		t.Errorf("trailers are not the last paragraph:\n%s", msg)
	}

	var many []gitops.Change
	for i := range maxListed + 5 {
		many = append(many, gitops.Change{Path: fmt.Sprintf("f%02d", i), Index: '?', Work: '?'})
	}
	msg = rollbackMessage("x", "plan.md", "r1", many)
	if !strings.Contains(msg, "f19\n  and 5 more (git show --stat on this commit lists them all)\n") || strings.Contains(msg, "f20") {
		t.Errorf("list not capped at %d:\n%s", maxListed, msg)
	}
}
