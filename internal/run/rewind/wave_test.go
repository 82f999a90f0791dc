package rewind

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/wave"
)

// worktreeAt adds a work tree of the repository at dir/name, detached at at.
func worktreeAt(t *testing.T, dir, at string) string {
	t.Helper()
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, dir, "worktree", "add", "-q", "--detach", wt, at)
	return wt
}

func TestKeepWorktreeKeepsAFailedTasksWork(t *testing.T) {
	t.Parallel()
	repo, dir, one := repoAt(t)
	ctx := context.Background()
	st := &runstate.State{RunID: "r1"}
	first := worktreeAt(t, dir, string(one))
	gittest.WriteFile(t, first, "a.txt", "failed work\n")
	gittest.WriteFile(t, first, "new.txt", "untracked\n")
	k, err := keepWorktree(ctx, repo, st, first, "T002", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Kept{Name: "T002", Ref: record.WorktreeRef("r1", "T002"), What: KeptFailed}); k == nil || *k != want {
		t.Fatalf("kept %+v, want %+v", k, want)
	}
	for name, want := range map[string]string{"a.txt": "failed work", "new.txt": "untracked"} {
		if got := gittest.Git(t, dir, "show", k.Ref+":"+name); got != want {
			t.Errorf("%s kept as %q, want %q", name, got, want)
		}
	}
	// A later stop's work tree of the same name does not replace it.
	second := worktreeAt(t, dir, string(one))
	gittest.WriteFile(t, second, "a.txt", "second try\n")
	k2, err := keepWorktree(ctx, repo, st, second, "T002", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := record.WorktreeRef("r1", "T002-2"); k2 == nil || k2.Ref != want {
		t.Fatalf("second kept %+v, want at %s", k2, want)
	}
	if got := gittest.Git(t, dir, "show", k.Ref+":a.txt"); got != "failed work" {
		t.Errorf("the first ref now holds %q", got)
	}
	if got := gittest.Git(t, dir, "show", k2.Ref+":a.txt"); got != "second try" {
		t.Errorf("the second ref holds %q", got)
	}
}

func TestKeepWorktreeKeepsASlotOnlyWithATasksChanges(t *testing.T) {
	t.Parallel()
	repo, dir, one := repoAt(t)
	ctx := context.Background()
	slot := worktreeAt(t, dir, string(one))
	if k, err := keepWorktree(ctx, repo, &runstate.State{RunID: "r1", WaveBase: one}, slot, "slot1", nil); k != nil || err != nil {
		t.Errorf("a clean slot kept: %+v, %v", k, err)
	}
	gittest.WriteFile(t, slot, "b.txt", "stopped task\n")
	if k, err := keepWorktree(ctx, repo, &runstate.State{RunID: "r1"}, slot, "slot1", nil); k != nil || err != nil {
		t.Errorf("a slot with no wave in flight kept: %+v, %v", k, err)
	}
	st := &runstate.State{RunID: "r1", WaveBase: one}
	k, err := keepWorktree(ctx, repo, st, slot, "slot1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Kept{Name: "slot1", Ref: record.WorktreeRef("r1", "slot1"), What: KeptInterrupted}); k == nil || *k != want {
		t.Fatalf("kept %+v, want %+v", k, want)
	}
	// A slot holding exactly a done task's work is not kept again.
	done := map[gitops.SHA]bool{gitops.SHA(gittest.Git(t, dir, "rev-parse", k.Ref+"^{tree}")): true}
	gittest.Git(t, dir, "update-ref", "-d", k.Ref)
	if k, err := keepWorktree(ctx, repo, st, slot, "slot1", done); k != nil || err != nil {
		t.Errorf("a slot holding done work kept: %+v, %v", k, err)
	}
	if k, err := keepWorktree(ctx, repo, st, t.TempDir(), "slot2", nil); k != nil || err != nil {
		t.Errorf("a directory that is no work tree kept: %+v, %v", k, err)
	}
}

func TestKeepWave(t *testing.T) {
	t.Parallel()
	repo, dir, one := repoAt(t)
	ctx := context.Background()
	st := &runstate.State{RunID: "r1"}
	gittest.Git(t, dir, "update-ref", record.WorkRef("r1", "T003"), string(one))
	gittest.Git(t, dir, "update-ref", record.WaveRef("r1"), string(one))
	gittest.Git(t, dir, "update-ref", record.WorktreeRef("r1", "slot2"), string(one))
	failed := wave.Dir(repo, "r1", "T004")
	gittest.Git(t, dir, "worktree", "add", "-q", "--detach", failed, string(one))
	gittest.WriteFile(t, failed, "a.txt", "failed\n")
	res := &Result{}
	if err := (&rewind{repo: repo, st: st}).keepWave(ctx, res); err != nil {
		t.Fatal(err)
	}
	want := []Kept{
		{Name: "T003", Ref: record.WorkRef("r1", "T003"), What: KeptDone},
		{Name: "T004", Ref: record.WorktreeRef("r1", "T004"), What: KeptFailed},
		{Name: "slot2", Ref: record.WorktreeRef("r1", "slot2"), What: KeptInterrupted},
	}
	if len(res.Wave) != len(want) {
		t.Fatalf("kept %+v, want %+v", res.Wave, want)
	}
	for i := range want {
		if res.Wave[i] != want[i] {
			t.Errorf("kept[%d] = %+v, want %+v", i, res.Wave[i], want[i])
		}
	}
	if _, err := gittest.TryGit(dir, "", "rev-parse", "--verify", "-q", record.WaveRef("r1")); err == nil {
		t.Error("the wave's staging ref is still there")
	}
}
