package attempt

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

func records(t *testing.T) (Records, string) {
	t.Helper()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a0\n")
	gittest.WriteFile(t, dir, "b.txt", "b0\n")
	gittest.Commit(t, dir, "base")
	repo, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	st := &runstate.State{RunID: "r1", Status: "failed"}
	return Records{Repo: repo, State: st, Out: progress.New(progress.Output{}), PlanRel: "plan.md"}, dir
}

// A retry discards what the attempt left and keeps what a person changed
// after the stop, and the discarded bytes stay under the stop's ref.
func TestDiscardKeepsThePersonsEdits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, dir := records(t)
	head := gitops.SHA(strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")))
	task := &planparse.Task{ID: "T001"}
	if err := s.Begin(ctx, task, false, head, false); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, "a.txt", "attempt\n")
	gittest.WriteFile(t, dir, "b.txt", "attempt\n")
	gittest.WriteFile(t, dir, "plan.md", "ticked\n") // planx's own: never the attempt's
	if err := s.RecordStop(ctx, task.ID, "failed"); err != nil {
		t.Fatal(err)
	}
	if s.State.StopRef != "refs/planx/runs/r1/stops/1-T001" || s.State.AttemptStop == "" {
		t.Fatalf("stop not recorded: ref %q stop %q", s.State.StopRef, s.State.AttemptStop)
	}
	gittest.WriteFile(t, dir, "b.txt", "person\n") // after the stop
	d, err := s.Compare(ctx, task.ID, head)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Changed, []string{"a.txt", "b.txt"}) || !slices.Equal(d.Edited, []string{"b.txt"}) {
		t.Fatalf("changed %q edited %q, want [a.txt b.txt] and [b.txt]", d.Changed, d.Edited)
	}
	if err := s.Discard(ctx, d, true); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.txt": "a0\n", "b.txt": "person\n"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q %v, want %q", name, got, err, want)
		}
	}
	if got := gittest.Git(t, dir, "show", "refs/planx/runs/r1/stops/1-T001:a.txt"); got != "attempt" {
		t.Errorf("the stop's ref holds a.txt %q, want the attempt's bytes", got)
	}
	// The person's b.txt, which the task run again may write over, is kept.
	if got := gittest.Git(t, dir, "show", "refs/planx/runs/r1/kept/1:b.txt"); got != "person" {
		t.Errorf("kept/1 holds b.txt %q, want the person's bytes", got)
	}
	if s.State.AttemptStop != "" || s.State.StopRef != "" {
		t.Errorf("the stop is still recorded after the discard: %q %q", s.State.AttemptStop, s.State.StopRef)
	}
}

// Content staged apart from the work tree lives only in the index: it is
// kept under a ref before a command replaces the index.
func TestKeepStagedApart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, dir := records(t)
	gittest.WriteFile(t, dir, "a.txt", "staged\n")
	gittest.Git(t, dir, "add", "a.txt")
	gittest.WriteFile(t, dir, "a.txt", "worktree\n")
	if err := s.KeepStagedApart(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "show", "refs/planx/runs/r1/kept/1:a.txt"); got != "staged" {
		t.Errorf("kept index holds %q, want the staged bytes", got)
	}
	if s.State.Kept != 1 {
		t.Errorf("Kept = %d, want 1", s.State.Kept)
	}
}
