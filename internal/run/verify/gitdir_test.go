package verify

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// gitDirRepo opens a new hermetic repository with no commit.
func gitDirRepo(t *testing.T) (*gitops.Repo, string) {
	t.Helper()
	dir := gittest.Init(t)
	r, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

// The guard sees planx's notes and refs move, loose or packed, and not
// other refs.
func TestGuardPlanxRefs(t *testing.T) {
	r, dir := gitDirRepo(t)
	sha := gittest.Commit(t, dir, "one")
	g := GuardOf(r, "x")
	gittest.Git(t, dir, "update-ref", "refs/heads/other", sha)
	gittest.Git(t, dir, "notes", "--ref=commits", "add", "-m", "not planx's", sha)
	if ch := g.Changed(GuardOf(r, "x")); len(ch) != 0 {
		t.Fatalf("unrelated refs moved the guard: %v", ch)
	}
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "forged", sha)
	if ch := g.Changed(GuardOf(r, "x")); !slices.Contains(ch, ".git/refs/notes/planx") {
		t.Errorf("notes move: %v", ch)
	}
	g = GuardOf(r, "x")
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/x/base", sha)
	if ch := g.Changed(GuardOf(r, "x")); len(ch) == 0 {
		t.Error("a new refs/planx ref went unseen")
	}
	gittest.Git(t, dir, "pack-refs", "--all")
	g = GuardOf(r, "x")
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/x/base", gittest.Commit(t, dir, "two"))
	if ch := g.Changed(GuardOf(r, "x")); len(ch) == 0 {
		t.Error("a packed refs/planx ref moved unseen")
	}
}

// The guard of a run leaves other runs' refs out (another work tree's run
// writes them meanwhile) and takes git packing the refs for no move.
func TestGuardOtherRuns(t *testing.T) {
	r, dir := gitDirRepo(t)
	sha := gittest.Commit(t, dir, "one")
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/x/base", sha)
	g := GuardOf(r, "x")
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/y/base", sha)
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/y/stops/1-T001", sha)
	gittest.Git(t, dir, "pack-refs", "--all")
	if ch := g.Changed(GuardOf(r, "x")); len(ch) != 0 {
		t.Fatalf("another run's refs, or packing, moved the guard: %v", ch)
	}
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/x/base", gittest.Commit(t, dir, "two"))
	if ch := g.Changed(GuardOf(r, "x")); !slices.Equal(ch, []string{".git/refs/planx/runs/x/base"}) {
		t.Errorf("the run's own ref moved: %v", ch)
	}
	if ch := g.Changed(GuardOf(r, "y")); len(ch) == 0 {
		t.Error("run y's guard saw nothing")
	}
}

// A snapshot of the git directory puts back what a task changed there:
// config, a hook removed, a hook planted.
func TestRestoreMetaUndoesWritesToGitDir(t *testing.T) {
	r, dir := gitDirRepo(t)
	gittest.Git(t, dir, "config", "user.useConfigOnly", "true")
	hooks := filepath.Join(r.CommonDir, "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	config, _ := os.ReadFile(filepath.Join(r.CommonDir, "config"))
	snap := SnapshotMeta(r)
	// What a task might do: switch the hook off, plant another, loosen config.
	gittest.Git(t, dir, "config", "core.hooksPath", "/dev/null")
	if err := os.Remove(filepath.Join(hooks, "pre-commit")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hooks, "post-checkout"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	done, err := RestoreMeta(r, snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".git/config (restored)", ".git/hooks/pre-commit (restored)", ".git/hooks/post-checkout (removed)"} {
		if !slices.Contains(done, want) {
			t.Errorf("RestoreMeta = %q, missing %q", done, want)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(r.CommonDir, "config")); string(now) != string(config) {
		t.Errorf("config not restored:\n%s", now)
	}
	if _, err := gittest.TryGit(dir, "", "config", "core.hooksPath"); err == nil {
		t.Error("git still reads core.hooksPath")
	}
	fi, err := os.Stat(filepath.Join(hooks, "pre-commit"))
	if err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("pre-commit not restored executable: %v %v", fi, err)
	}
	if _, err := os.Lstat(filepath.Join(hooks, "post-checkout")); err == nil {
		t.Error("planted hook still there")
	}
}
