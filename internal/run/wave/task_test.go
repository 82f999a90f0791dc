package wave

import (
	"context"
	"strings"
	"testing"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/planparse"
)

func TestNewTaskOwnsItsEntryDownToTheArrays(t *testing.T) {
	t.Parallel()
	lt := &execlog.Task{ID: "T1", Files: make([]string, 1, 4)}
	tk := NewTask(&planparse.Task{ID: "T1"}, lt, "dir")
	if tk.Log != &tk.Own {
		t.Fatal("Log is not the task's own entry")
	}
	tk.Own.Files = append(tk.Own.Files, "a.go")
	if lt.Files[:2][1] != "" {
		t.Error("appending to the own entry wrote into the run's log entry's array")
	}
}

func TestRecoverTakesTheWorkKeptUnderItsRef(t *testing.T) {
	t.Parallel()
	repo, _, works := chainRepo(t)
	ctx := context.Background()
	if err := repo.Refs().Update(ctx, WorkRef("run1", "T001"), works[0].Commit, "", "test"); err != nil {
		t.Fatal(err)
	}
	done := NewTask(&planparse.Task{ID: "T001"}, &execlog.Task{Attempts: 2}, "")
	if !Recover(ctx, repo, "run1", done) || done.Work != works[0].Commit || done.Own.Attempts != 1 || done.Own.Status != "running" {
		t.Errorf("T001 recovered as %+v", done)
	}
	if lost := NewTask(&planparse.Task{ID: "T002"}, &execlog.Task{}, ""); Recover(ctx, repo, "run1", lost) {
		t.Error("T002 recovered without a work ref")
	}
}

func TestNextSaysHowToGoOnAfterAStopInAWave(t *testing.T) {
	t.Parallel()
	if got := Next(true, nil, nil, "run1", "T1"); !strings.Contains(got, "integrates the tasks whose work was done") {
		t.Errorf("inside a wave: %q", got)
	}
	if got := Next(true, []string{"conf.txt"}, nil, "run1", "T1"); !strings.Contains(got, "landing stopped at your changes to conf.txt: `planx resume` keeps your version under refs/planx/runs/run1/kept/<n>") {
		t.Errorf("a landing stopped at a person's changes: %q", got)
	}
	if got := Next(false, nil, nil, "run1", "T1"); got != "" {
		t.Errorf("no repository: %q", got)
	}
	repo, _, _ := chainRepo(t)
	if got := Next(false, nil, repo, "run1", "T1"); got != "" {
		t.Errorf("no work tree kept: %q", got)
	}
}
