package drive

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// TestBooksStop stops a task through the run's books, built from a
// repository, a state, a log, an output and a clock (no runner): the log
// and the state say why, both are saved, the wave's pool is dropped and
// the person is told what to do next.
func TestBooksStop(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	head := gitops.SHA(gittest.Commit(t, dir, "base"))
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	log := &execlog.Log{Path: "run.md", RunID: "run1", Status: record.RunRunning}
	st := &runstate.State{RunID: "run1", Base: head, Status: record.RunRunning, Log: log}
	var out bytes.Buffer
	pool := wavepkg.NewPool(repo)
	b := books{repo: repo, st: st, log: log, out: progress.New(progress.Output{Out: &out}), clock: clock(at),
		planRel: "tasks.md", pool: &pool}
	task := &planparse.Task{ID: "1", Label: "1", Title: "First"}

	lt := b.logTask(task)
	if again := b.logTask(task); again != lt || len(log.Tasks) != 1 || lt.Status != record.TaskPending {
		t.Fatalf("log entries %+v: want one pending entry for the task", log.Tasks)
	}
	err = b.stop(task, record.RunFailed, "the gate failed", "FAIL x", ErrTaskFailed)
	if !errors.Is(err, ErrTaskFailed) || !strings.Contains(err.Error(), "the gate failed") {
		t.Errorf("stop returned %v", err)
	}
	if lt.Status != record.TaskFailed || lt.Failure != "the gate failed\n\nFAIL x" || !lt.Finished.Equal(at) {
		t.Errorf("log entry %+v", lt)
	}
	if log.Status != record.RunFailed || len(log.Issues) != 1 || log.Issues[0].What != "the gate failed" {
		t.Errorf("log status %s, issues %+v", log.Status, log.Issues)
	}
	if st.Status != record.RunFailed || st.Current != "1" || st.Reason != "the gate failed" || pool != nil {
		t.Errorf("state %s at %s (%q), pool %v (want dropped)", st.Status, st.Current, st.Reason, pool)
	}
	saved, err := runstate.Load(repo)
	if err != nil || saved == nil || saved.Status != record.RunFailed {
		t.Errorf("saved state %+v, %v", saved, err)
	}
	if !strings.Contains(out.String(), "planx resume") {
		t.Errorf("output %q: want the next step", out.String())
	}
}

// clock is a hall.Desk that only tells the time.
type clock time.Time

func (c clock) Issue(planparse.TaskID, string, string) {}
func (c clock) Say(planparse.TaskID, string)           {}
func (c clock) Ask(string) bool                        { return false }
func (c clock) Save() error                            { return nil }
func (c clock) Now() time.Time                         { return time.Time(c) }
