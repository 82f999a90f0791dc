package ledger

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
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
		if got := taskSummary("plan.md", task, &c.lt, c.ticked, ""); got != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}

func TestRollbackMessageListsSnapshot(t *testing.T) {
	clean := RollbackMessage("x", "plan.md", "r1", nil)
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
	msg := RollbackMessage("x", "plan.md", "r1", changes)
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
	msg = RollbackMessage("x", "plan.md", "r1", many)
	if !strings.Contains(msg, "f19\n  and 5 more (git show --stat on this commit lists them all)\n") || strings.Contains(msg, "f20") {
		t.Errorf("list not capped at %d:\n%s", maxListed, msg)
	}
}

// The commit subject keeps planx's ID; the plan's own goes in Planx-Label,
// written only when the two differ.
func TestTaskMessageLabelTrailer(t *testing.T) {
	c := TaskCommit{PlanRel: "tasks.md", RunID: "20260101-000000-abcdef", Log: &execlog.Task{Executor: "shell"}, Ticked: true}
	c.Task = &planparse.Task{ID: "T003", Label: "1.2", Title: "Add a README"}
	msg := TaskMessage(c)
	if !strings.HasPrefix(msg, "T003: Add a README\n") || !strings.Contains(msg, "\n"+record.TrailerLabel+": 1.2\n") ||
		!strings.Contains(msg, "Task 1.2 (T003) of plan tasks.md") {
		t.Errorf("message:\n%s", msg)
	}
	c.Task = &planparse.Task{ID: "T003", Label: "T003", Title: "Add a README"}
	msg = TaskMessage(c)
	if strings.Contains(msg, record.TrailerLabel) {
		t.Errorf("label equal to the ID written:\n%s", msg)
	}
}

// The task commit's message whole: its trailers are what planx verify and
// review parse, so every byte of them is pinned here.
func TestTaskMessageGolden(t *testing.T) {
	task := &planparse.Task{ID: "T004", Label: "2.1", Title: "Wire the parser"}
	lt := &execlog.Task{Executor: "agent", Sandbox: "bwrap", Files: []string{"p.go"}, Commands: []execlog.Command{{Name: "agent"}},
		Gates: []execlog.Gate{
			{Name: "test", Passed: true, Duration: 1234 * time.Millisecond, Tests: "12 passed", Cached: true, Known: []string{"TestFlaky"}},
			{Name: "lint", Passed: true, Duration: 56 * time.Millisecond, Overridden: true, Fixed: []string{"p.go"}},
		}}
	msg := TaskMessage(TaskCommit{PlanRel: "docs/plan.md", RunID: "20260101-000000-abcdef", Task: task, Log: lt,
		Groups: []*planparse.Task{{ID: "T003"}}, Folded: []string{"wip: parser\n\nPlanx-Task: T999"},
		Warnings: []string{"secrets: a token-like string in p.go"}, Skipped: []planparse.TaskID{"T002"}, Ticked: true})
	want := "T004: Wire the parser\n\n" +
		"Task 2.1 (T004) of plan docs/plan.md, executed by agent in 1 step; 2 gates passed.\n" +
		"The commit holds the 1 file the task changed, the plan's tick and the execution log.\n\n" +
		"Folded commit made by the executor:\n\n    wip: parser\n    \n    Planx-Task: T999\n\n" +
		"Refs: docs/plan.md\n" +
		"Planx-Run: 20260101-000000-abcdef\n" +
		"Planx-Task: T004\n" +
		"Planx-Label: 2.1\n" +
		"Planx-Task-Hash: sha256:" + task.Hash() + "\n" +
		"Planx-Executor: agent\n" +
		"Planx-Sandbox: bwrap\n" +
		"Planx-Gate: test=pass 1234ms cached\n" +
		"Planx-Gate: lint=pass 56ms overridden\n" +
		"Planx-Tests: test 12 passed\n" +
		"Planx-Tests: lint exit-code only\n" +
		"Planx-Fixed: lint p.go\n" +
		"Planx-Skipped: T002\n" +
		"Planx-Group: T003\n" +
		"Planx-Warning: secrets: a token-like string in p.go\n" +
		"Planx-Warning: known-failures=test:TestFlaky\n"
	if msg != want {
		t.Errorf("message:\n%q\nwant:\n%q", msg, want)
	}
}

func TestFinishMessage(t *testing.T) {
	cases := []struct {
		skipped []planparse.TaskID
		want    string
	}{
		{nil, "planx: finish run of plan Docs\n\nThe run ended without a task commit to carry its log: record the log.\n\n" +
			"Refs: plan.md\nPlanx-Run: r1\n"},
		{[]planparse.TaskID{"T002", "T003"}, "planx: finish run of plan Docs\n\n" +
			"The run ended without a task commit to carry its log: record the log and the skipped tasks.\n\n" +
			"Refs: plan.md\nPlanx-Run: r1\nPlanx-Skipped: T002\nPlanx-Skipped: T003\n"},
	}
	for _, c := range cases {
		if got := FinishMessage("Docs", "plan.md", "r1", c.skipped, nil); got != c.want {
			t.Errorf("skipped %v:\n%q\nwant\n%q", c.skipped, got, c.want)
		}
	}
}

func TestGateTrailer(t *testing.T) {
	cases := []struct {
		g    execlog.Gate
		want string
	}{
		{execlog.Gate{Name: "test", Passed: true, Duration: 1500 * time.Millisecond}, "test=pass 1500ms"},
		{execlog.Gate{Name: "lint", Duration: 3 * time.Millisecond}, "lint=fail 3ms"},
		{execlog.Gate{Name: "vet", Passed: true, Overridden: true, Cached: true}, "vet=pass 0ms overridden cached"},
	}
	for _, c := range cases {
		if got := GateTrailer(c.g); got != c.want {
			t.Errorf("GateTrailer(%+v) = %q, want %q", c.g, got, c.want)
		}
	}
}

// A reviewed task names both agents, and its review gate is a Planx-Gate
// but no Planx-Tests (no test ran).
func TestTaskMessageReview(t *testing.T) {
	lt := &execlog.Task{Executor: "agent", Agent: "claude/default", Review: "fail by codex/gpt-5; 2 findings",
		Gates: []execlog.Gate{{Name: "test", Passed: true, Tests: "1 passed 0 failed 0 skipped"}, {Name: "review", Passed: true}}}
	msg := TaskMessage(TaskCommit{PlanRel: "plan.md", RunID: "20260101-000000-abcdef", Log: lt, Task: &planparse.Task{ID: "T001", Title: "Sub"}})
	for _, want := range []string{"\nPlanx-Agent: claude/default\nPlanx-Review: fail by codex/gpt-5; 2 findings\n", "\nPlanx-Gate: review=pass",
		"\nPlanx-Tests: test 1 passed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "Planx-Tests: review") {
		t.Errorf("the review gate has a Planx-Tests trailer:\n%s", msg)
	}
}
