package modelstub_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/modelstub"
)

// These run planx with a real CLI whose every tool call fails (a command
// that exits non-zero, a file that is not there) and which then says it is
// done: planx must fail the task naming the failures, not report "no
// changes". Their twins fail once, then do the task: committed.

// failingTurns are two turns of name's tools that fail.
func failingTurns(name string) []modelstub.Turn {
	switch name {
	case "claude":
		return []modelstub.Turn{
			{Text: "Running the tests first.", Calls: []modelstub.ToolCall{{ID: "call_fail1", Name: "Bash", Args: raw(map[string]any{"command": "ls /nonexistent-dir", "description": "List"})}}},
			{Calls: []modelstub.ToolCall{{ID: "call_fail2", Name: "Read", Args: raw(map[string]any{"file_path": "/nonexistent/calc.go"})}}},
		}
	case "codex":
		return []modelstub.Turn{
			{Text: "Running the tests first.", Calls: []modelstub.ToolCall{{ID: "call_fail1", Name: "exec_command", Args: raw(map[string]any{"cmd": "ls /nonexistent-dir", "login": false, "yield_time_ms": 30000})}}},
			{Calls: []modelstub.ToolCall{{ID: "call_fail2", Name: "exec_command", Args: raw(map[string]any{"cmd": "cat /nonexistent/calc.go", "login": false, "yield_time_ms": 30000})}}},
		}
	}
	panic("no failing turns for " + name)
}

func TestPlanxRealAgentToolsFailClaude(t *testing.T) { toolsFail(t, "claude") }
func TestPlanxRealAgentToolsFailCodex(t *testing.T)  { toolsFail(t, "codex") }
func TestPlanxRealAgentRecoversClaude(t *testing.T)  { recovers(t, "claude") }
func TestPlanxRealAgentRecoversCodex(t *testing.T)   { recovers(t, "codex") }

func toolsFail(t *testing.T, name string) {
	r := runPlanxWith(t, name, plan, func(string) []modelstub.Turn {
		return append(failingTurns(name), modelstub.Turn{Text: "Implemented the fix."})
	})
	var exit *exec.ExitError
	if !errors.As(r.err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("planx run: %v, want exit 3 (a failed task)", r.err)
	}
	for _, want := range []string{"every tool call the agent made failed (2 of 2)", "ls /nonexistent-dir", "No such file"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("planx's output lacks %q", want)
		}
	}
	if strings.Contains(r.out, "no changes") {
		t.Errorf("planx reported no changes rather than the failed tool calls")
	}
	if subj := strings.TrimSpace(git(t, r.repo, r.env, "log", "-1", "--format=%s")); !strings.HasPrefix(subj, "rollback") {
		t.Errorf("the last commit is %q, want the rollback commit", subj)
	}
}

func recovers(t *testing.T, name string) {
	r := runPlanxWith(t, name, plan, func(repo string) []modelstub.Turn {
		return append(failingTurns(name)[:1], cases[name].script(repo)...)
	})
	if r.err != nil {
		t.Fatalf("planx run: %v", r.err)
	}
	msg := git(t, r.repo, r.env, "log", "-1", "--format=%B")
	for _, want := range []string{"T001: Fix Add", "Planx-Cost: tokens in="} {
		if !strings.Contains(msg, want) {
			t.Errorf("the task commit lacks %q:\n%s", want, msg)
		}
	}
	if res, ok := r.stub.ToolResult("call_fail1"); !ok || !strings.Contains(res.Output, "No such file") {
		t.Errorf("the first call did not fail as scripted: %+v (found %v)", res, ok)
	}
}

// The budget tests run a CLI under a task budget of 2500 tokens. claude
// reports each message's usage as the message starts (1000 in, 1 out), so
// planx stops it at its third turn, before the commit its script would
// make; codex reports its usage only when its turn ends, so planx finds
// it over then. Either way the run stops at the task, nothing committed.
func TestPlanxRealAgentBudgetClaude(t *testing.T) { overBudget(t, "claude", false) }
func TestPlanxRealAgentBudgetCodex(t *testing.T)  { overBudget(t, "codex", true) }

func overBudget(t *testing.T, name string, atEnd bool) {
	budgeted := strings.Replace(plan, "topic: real agent\n", "topic: real agent\nbudget:\n  task: {tokens: 2500}\n", 1)
	r := runPlanxWith(t, name, budgeted, cases[name].script)
	var exit *exec.ExitError
	if !errors.As(r.err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("planx run: %v, want exit 3 (a stop at the task)", r.err)
	}
	for _, want := range []string{"over budget: the task's budget: tokens", "> 2500 (budget.task.tokens)", "raise budget.task.tokens in plan.md's front matter"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("planx's output lacks %q", want)
		}
	}
	if _, ok := r.stub.ToolResult(commitCallID); ok != atEnd {
		t.Errorf("the agent's commit call was answered: %v, want %v", ok, atEnd)
	}
	if subj := strings.TrimSpace(git(t, r.repo, r.env, "log", "-1", "--format=%s")); !strings.HasPrefix(subj, "rollback") {
		t.Errorf("the last commit is %q, want the rollback commit", subj)
	}
}
