package execute

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/planparse"
)

func task(steps ...string) *planparse.Task {
	t := &planparse.Task{ID: "t1"}
	for i, s := range steps {
		t.Steps = append(t.Steps, planparse.Step{Code: s, Line: 10 + i})
	}
	return t
}

func options(t *testing.T, out *bytes.Buffer) Options {
	t.Helper()
	return Options{Dir: t.TempDir(), Plan: "/plan.md", RunID: "r1", OutDir: t.TempDir(),
		Out: progress.New(progress.Output{Out: out})}
}

// A step runs in its directory with the task's variables; the first that
// fails fails the task with its plan line, and the steps after it do not
// run. The log entry holds the steps that ran.
func TestStepsStopAtTheFirstFailure(t *testing.T) {
	var out bytes.Buffer
	o := options(t, &out)
	tk := task(`pwd > where; echo "$PLANX_TASK_ID $PLANX_REPO $PLANX_RUN_ID ${PLANX_WORKTREE-none}" > vars`, "exit 3", "touch never")
	lt := &execlog.Task{Commands: []execlog.Command{{Name: "stale"}}}
	_, err := Steps(context.Background(), tk, lt, o)
	f := outcome.As(err)
	if f == nil || f.What != "step 2/3 (plan line 11) failed with exit code 3" {
		t.Fatalf("err = %v", err)
	}
	if len(lt.Commands) != 2 || lt.Commands[0].ExitCode != 0 || lt.Commands[1].ExitCode != 3 {
		t.Fatalf("commands = %+v", lt.Commands)
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "never")); err == nil {
		t.Fatal("a step after the failing one ran")
	}
	vars, _ := os.ReadFile(filepath.Join(o.Dir, "vars"))
	if got, want := strings.TrimSpace(string(vars)), "t1 "+o.Dir+" r1 none"; got != want {
		t.Fatalf("vars = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(o.OutDir, "t1-step2.log")); err != nil {
		t.Fatalf("the step's output was not kept: %v", err)
	}
	if !strings.Contains(out.String(), "step 1/3") {
		t.Fatalf("the step was not announced:\n%s", out.String())
	}
}

// In a wave's slot the step learns its work tree, its command is echoed
// naming its task (tasks run together), and no pid file is written.
func TestStepsInASlot(t *testing.T) {
	var out bytes.Buffer
	o := options(t, &out)
	o.Slot, o.Shared = true, &sync.Mutex{}
	o.Out.Together(true)
	lt := &execlog.Task{}
	if _, err := Steps(context.Background(), task(`echo "$PLANX_WORKTREE" > wt`), lt, o); err != nil {
		t.Fatal(err)
	}
	wt, _ := os.ReadFile(filepath.Join(o.Dir, "wt"))
	if strings.TrimSpace(string(wt)) != o.Dir {
		t.Fatalf("PLANX_WORKTREE = %q, want %q", wt, o.Dir)
	}
	if !strings.Contains(out.String(), "t1 step 1/1: echo") {
		t.Fatalf("a wave's step was not announced with its task:\n%s", out.String())
	}
	if _, err := os.Stat("child.pid"); err == nil {
		t.Fatal("the zero Pids wrote a pid file")
	}
}

// A step that outlives the task's time left is stopped and fails the task;
// the pid file is emptied once it ended.
func TestStepsTimeOut(t *testing.T) {
	var out bytes.Buffer
	o := options(t, &out)
	o.TaskTimeout = 200 * time.Millisecond
	dir := t.TempDir()
	o.Pids = PidsIn(dir)
	_, err := Steps(context.Background(), task("sleep 5"), &execlog.Task{}, o)
	if f := outcome.As(err); f == nil || !strings.HasPrefix(f.What, "step 1/1 (plan line 10) timed out after") {
		t.Fatalf("err = %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "child.pid")); err != nil || len(b) != 0 {
		t.Fatalf("child.pid = %q, %v; want empty", b, err)
	}
}

func TestStepTimeout(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		step, task time.Duration
		started    time.Time
		want       time.Duration
	}{
		{0, 0, now, 0},
		{time.Minute, 0, now, time.Minute},
		{time.Minute, time.Hour, now, time.Minute},
		{0, time.Hour, now.Add(-2 * time.Hour), time.Millisecond},
	} {
		got := Options{StepTimeout: c.step, TaskTimeout: c.task}.stepTimeout(c.started)
		if got != c.want {
			t.Errorf("step %s, task %s: %s, want %s", c.step, c.task, got, c.want)
		}
	}
	if got := (Options{StepTimeout: time.Hour, TaskTimeout: time.Minute}).stepTimeout(now); got > time.Minute || got < 50*time.Second {
		t.Errorf("the task's time left bounds the step: %s", got)
	}
}

// An agent that writes a reason to its reason file gave up: the task fails
// with that reason, and the prompt it read is kept.
func TestAgentGaveUp(t *testing.T) {
	var out bytes.Buffer
	o := options(t, &out)
	var warned notes
	o.Jail = NewJail(gates.Sandbox{Mode: "off"}, nil, &warned)
	lt := &execlog.Task{}
	_, err := Agent(context.Background(), task(), lt, AgentRun{Spec: `cat > /dev/null; echo "cannot do it" > "$PLANX_REASON_FILE"`, Attempt: 1}, o)
	f := outcome.As(err)
	if f == nil || !f.GaveUp || f.What != "the agent gave up: cannot do it" {
		t.Fatalf("err = %v", err)
	}
	if len(lt.Commands) != 1 || lt.Commands[0].Name != "agent attempt 1" {
		t.Fatalf("commands = %+v", lt.Commands)
	}
	if _, err := os.Stat(filepath.Join(o.OutDir, "t1-prompt-1.md")); err != nil {
		t.Fatalf("no prompt file: %v", err)
	}
	if len(warned) != 0 {
		t.Fatalf("sandbox off warned: %v", warned)
	}
}

// notes is a hall.Desk that keeps what it is told.
type notes []string

func (n *notes) Issue(_ planparse.TaskID, msg, _ string) { *n = append(*n, msg) }
func (n *notes) Say(planparse.TaskID, string)            {}
func (n *notes) Ask(string) bool                         { return false }
func (n *notes) Save() error                             { return nil }
func (n *notes) Now() time.Time                          { return time.Time{} }
