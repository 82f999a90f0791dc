package modelstub_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/modelstub"
)

// The review gate with a real reviewer: planx runs a scripted agent (a
// shell command) on the task, then claude, its preset as `review:` names
// it, against the stub. The reviewer's conversation reads the code, tries
// to write the work tree through its shell tool (a write its task space
// discards), and its final message ends in the verdict. A pass commits the
// task with Planx-Review; a fail stops it with the findings.

const (
	reviewPlan = `---
topic: review
gates:
  - name: test
    command: go test ./...
---
# Calculator

- [ ] T001 Fix Add
  Files: Modify: calc.go
`
	reviewWriteCallID = "call_review_write"
)

func TestPlanxReviewRealClaudePass(t *testing.T) {
	out, home, repo, env, stub := runReview(t, "Add adds now, for any two ints.\nFINDING: the doc comment could name overflow\nVERDICT: pass")
	if !strings.Contains(out, "review: pass by claude/default; 1 finding") {
		t.Errorf("planx did not say the review passed")
	}
	msg := git(t, repo, env, "log", "-1", "--format=%B")
	for _, want := range []string{"T001: Fix Add", "\nPlanx-Review: pass by claude/default; 1 finding\n", "\nPlanx-Agent: sh ",
		"\nPlanx-Gate: review=pass"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the task commit lacks %q:\n%s", want, msg)
		}
	}
	note := git(t, repo, env, "notes", "--ref=refs/notes/planx", "show", "HEAD")
	if !strings.Contains(note, "FINDING: the doc comment could name overflow") {
		t.Errorf("the gate-output note lacks the finding:\n%s", note)
	}
	// The reviewer's write ran, in its own space, and reached nothing.
	if res, ok := stub.ToolResult(reviewWriteCallID); !ok || res.IsError || !strings.Contains(res.Output, "wrote") {
		t.Errorf("the reviewer's write through its shell tool: %+v (found %v)", res, ok)
	}
	if src := git(t, repo, env, "show", "HEAD:calc.go"); !strings.Contains(src, "return a + b") {
		t.Errorf("the committed calc.go is not the agent's:\n%s", src)
	}
	if _, err := os.Stat(filepath.Join(repo, "planted.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the reviewer's file reached the work tree: %v", err)
	}
	// claude keeps its sessions in HOME: in the reviewer's space, gone with it.
	for _, p := range []string{".claude", ".claude.json"} {
		if _, err := os.Stat(filepath.Join(home, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the reviewer's ~/%s reached HOME: %v", p, err)
		}
	}
	if st := git(t, repo, env, "status", "--porcelain"); st != "" {
		t.Errorf("the work tree is not clean after the run:\n%s", st)
	}
}

func TestPlanxReviewRealClaudeFail(t *testing.T) {
	out, _, repo, env, _ := runReview(t, "FINDING: Add is right for the test's numbers only\nVERDICT: fail")
	if !strings.Contains(out, "review: fail by claude/default") || !strings.Contains(out, "FINDING: Add is right for the test's numbers only") {
		t.Errorf("planx did not stop on the review with its finding")
	}
	if msg := git(t, repo, env, "log", "--format=%s"); strings.Contains(msg, "T001") {
		t.Errorf("a task the reviewer failed was committed:\n%s", msg)
	}
}

// runReview runs planx on a repository whose .planx.yaml has claude
// review the task, with the reviewer's conversation ending in final; it
// returns planx's output, HOME, the repository, its environment and the
// stub.
func runReview(t *testing.T, final string) (string, string, string, []string, *modelstub.Server) {
	bin := agentBin(t, "claude")
	if testing.Short() {
		t.Skip("runs a real agent CLI")
	}
	px := planx(t)
	home, repo, _, env := newWorld(t)
	writeFile(t, filepath.Join(repo, "plan.md"), reviewPlan)
	writeFile(t, filepath.Join(repo, ".planx.yaml"), "review:\n  agent: claude\n")
	git(t, repo, env, "add", "-A")
	git(t, repo, env, "commit", "-q", "-m", "plan")
	fix := filepath.Join(filepath.Dir(repo), "fix.sh")
	writeFile(t, fix, "sed -i 's/return a - b/return a + b/' calc.go\n")

	f := filepath.Join(repo, "calc.go")
	stub := modelstub.New([]modelstub.Turn{
		{Text: "Reading the change.", Calls: []modelstub.ToolCall{{Name: "Read", Args: raw(map[string]any{"file_path": f})}}},
		{Calls: []modelstub.ToolCall{{ID: reviewWriteCallID, Name: "Bash", Args: raw(map[string]any{
			"command": "echo planted > planted.txt && sed -i 's/a + b/a * b/' calc.go && echo wrote", "description": "Try a write"})}}},
		{Text: final},
	}, modelstub.Options{Log: t.Logf})
	t.Cleanup(stub.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, px, "run", "--agent", "sh "+fix, "plan.md")
	cmd.Dir = repo
	cmd.Env = append(withPath(env, filepath.Dir(bin)), presetEnv["claude"](t, home, stub.URL)...)
	out, err := cmd.CombinedOutput()
	t.Logf("planx:\n%s", tail(string(out), 4000))
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("planx run: %v", err)
	}
	if !stub.Exhausted() {
		t.Errorf("the reviewer did not go through its conversation: %d turns left", stub.Remaining())
	}
	for _, r := range stub.Requests() {
		if r.Turn == 0 && !strings.Contains(string(r.Body), "VERDICT: pass") {
			t.Errorf("the reviewer's first request does not carry planx's review prompt")
		}
	}
	return string(out), home, repo, env, stub
}
