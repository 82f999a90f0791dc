package rewind

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
)

func TestRunStarted(t *testing.T) {
	t.Parallel()
	got, ok := runStarted("20261125-221926-1515fe")
	if want := time.Date(2026, 11, 25, 22, 19, 26, 0, time.Local); !ok || !got.Equal(want) {
		t.Errorf("runStarted = %v, %v; want %v", got, ok, want)
	}
	for _, id := range []string{"", "x", "2026-11-25", "notarun-123456-xx"} {
		if _, ok := runStarted(id); ok {
			t.Errorf("runStarted(%q) ok", id)
		}
	}
}

func TestPrune(t *testing.T) {
	t.Parallel()
	repo, dir, one := repoAt(t)
	ctx := context.Background()
	old, recent := "20260101-000000-aaaaaa", "20260120-000000-bbbbbb"
	for _, ref := range []string{record.RunRef(old, "base"), record.HeadRef(old), record.WorkRef(old, "T001"), record.HeadRef(recent)} {
		gittest.Git(t, dir, "update-ref", ref, string(one))
	}
	if err := os.MkdirAll(runstate.RunDir(repo, old), 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 21, 0, 0, 0, 0, time.Local)
	o := PruneOptions{OlderThan: 7 * 24 * time.Hour, DryRun: true, Now: now}
	dry, err := Prune(ctx, repo, o)
	if err != nil {
		t.Fatal(err)
	}
	wantRefs := []string{record.HeadRef(old), record.WorkRef(old, "T001")}
	if !slices.Equal(dry.Runs, []string{old}) || !slices.Equal(dry.Refs, wantRefs) || len(dry.Dirs) != 1 {
		t.Errorf("dry run lists %+v, want run %s, refs %v and its directory", dry, old, wantRefs)
	}
	if _, err := gittest.TryGit(dir, "", "rev-parse", "--verify", "-q", record.HeadRef(old)); err != nil {
		t.Error("the dry run removed a ref")
	}
	o.DryRun = false
	if _, err := Prune(ctx, repo, o); err != nil {
		t.Fatal(err)
	}
	for ref, kept := range map[string]bool{record.RunRef(old, "base"): true, record.HeadRef(old): false, record.WorkRef(old, "T001"): false, record.HeadRef(recent): true} {
		if _, err := gittest.TryGit(dir, "", "rev-parse", "--verify", "-q", ref); (err == nil) != kept {
			t.Errorf("%s kept: %v, want %v", ref, err == nil, kept)
		}
	}
	if _, err := os.Stat(runstate.RunDir(repo, old)); !os.IsNotExist(err) {
		t.Errorf("the old run's directory is still there: %v", err)
	}
}
