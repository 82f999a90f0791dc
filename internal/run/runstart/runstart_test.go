package runstart

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

func TestGatesDetail(t *testing.T) {
	t.Parallel()
	if got := gateNames(nil); got != "none configured" {
		t.Errorf("no gates: %q", got)
	}
	if got := gatesDetail(nil); got != "warning: "+NoGates {
		t.Errorf("no gates detail: %q", got)
	}
	gs := []gates.Gate{{Name: "test"}, {Name: "vet"}}
	if got := gatesDetail(gs); got != "test, vet (pinned for the whole run)" {
		t.Errorf("detail: %q", got)
	}
	cs := []gitops.Change{{Path: "a"}, {Path: "b"}, {Path: "c"}, {Path: "d"}, {Path: "e"}}
	if got := summarize(cs); got != "a, b, c, and 2 more" {
		t.Errorf("summarize: %q", got)
	}
}

// TestStaleAsk checks that a question drops the survey before the person
// answers, and that without anybody to ask there is no question.
func TestStaleAsk(t *testing.T) {
	t.Parallel()
	if StaleAsk(nil, func() { t.Error("stale without a question") }) != nil {
		t.Error("no one to ask, yet a question")
	}
	var order []string
	ask := StaleAsk(func(q string) bool { order = append(order, "ask "+q); return true },
		func() { order = append(order, "stale") })
	if !ask("go?") || strings.Join(order, "; ") != "stale; ask go?" {
		t.Errorf("order %q", order)
	}
}

// TestNewRecord starts the records of a run in a repository and checks
// the log directory it refuses.
func TestNewRecord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, ".gitignore", "ignored/\n")
	gittest.Commit(t, dir, "base")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := planparse.Parse("tasks.md", []byte("# Plan\n\n- [ ] 1. First\n- [ ] 2. Second\n"), planparse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := Start{Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), LogDir: "memory-bank/execute", Plan: plan, PlanRel: "tasks.md",
		Head: gitops.Head{Branch: "main", SHA: "abc"}, Tasks: plan.Tasks[1:], Options: runstate.SavedOptions{Jobs: 2}}
	st, err := NewRecord(ctx, repo, start)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(st.RunID, "20260102-030405-") || st.Log == nil || st.Log.RunID != st.RunID || st.Log.PlanPath != "tasks.md" {
		t.Errorf("state %+v, log %+v", st, st.Log)
	}
	if !strings.HasPrefix(st.Log.Path, "memory-bank/execute/") || len(st.Plan) != 2 || len(st.ToRun) != 1 || st.ToRun[0] != plan.Tasks[1].ID || st.Options.Jobs != 2 {
		t.Errorf("log at %q, plan %v, to run %v, options %+v", st.Log.Path, st.Plan, st.ToRun, st.Options)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"..", ".git/logs", "ignored", "link/logs", dir} {
		start.LogDir = bad
		if _, err := NewRecord(ctx, repo, start); !errors.Is(err, planparse.ErrInvalid) {
			t.Errorf("log_dir %q: %v, want ErrInvalid", bad, err)
		}
	}
}

// TestEarlySurvey checks that a survey started early is taken once, and
// that after that (or without one) take runs a new one.
func TestEarlySurvey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	e := StartSurvey(ctx, repo)
	sv, err := e.take(ctx, repo)
	if err != nil || len(sv.Changes) != 1 {
		t.Fatalf("early survey: %+v, %v", sv, err)
	}
	gittest.WriteFile(t, dir, "b.txt", "b\n")
	if sv, err = e.take(ctx, repo); err != nil || len(sv.Changes) != 2 {
		t.Errorf("second take: %+v, %v; want a new survey", sv, err)
	}
	var none *Early
	none.Wait()
	if sv, err = none.take(ctx, repo); err != nil || len(sv.Changes) != 2 {
		t.Errorf("no early survey: %+v, %v", sv, err)
	}
}
