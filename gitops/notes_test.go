package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

func TestNotes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	sha := SHA(gittest.Commit(t, dir, "one"))
	const ref = "refs/notes/planx"

	if got, err := r.Notes().Show(ctx, ref, sha); err != nil || got != nil {
		t.Fatalf("Note before any note = %q, %v; want nil, nil", got, err)
	}
	body := []byte("gate test: pass\n--- output\nok\n")
	if err := r.Notes().Add(ctx, ref, sha, body); err != nil {
		t.Fatal(err)
	}
	// git itself must see it under the same ref, not under refs/notes/commits.
	if got := gittest.Git(t, dir, "notes", "--ref=planx", "show", string(sha)); got+"\n" != string(body) {
		t.Errorf("git notes show = %q", got)
	}
	if got := gittest.Git(t, dir, "notes", "list"); got != "" {
		t.Errorf("default notes ref touched: %q", got)
	}
	// -f replaces.
	if err := r.Notes().Add(ctx, ref, sha, []byte("second\n")); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Notes().Show(ctx, ref, sha); err != nil || string(got) != "second\n" {
		t.Errorf("Note after replace = %q, %v", got, err)
	}
	other := SHA(gittest.Commit(t, dir, "two"))
	if got, err := r.Notes().Show(ctx, ref, other); err != nil || got != nil {
		t.Errorf("Note of a commit without one = %q, %v", got, err)
	}
	if err := r.Notes().Add(ctx, "--ref", sha, nil); err == nil {
		t.Error("Add accepted an option as ref")
	}
	fsck(t, dir)
}

func TestWorktreeAndHooksDir(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	gittest.Git(t, dir, "add", "a.txt")
	sha := SHA(gittest.Commit(t, dir, "one"))
	gittest.WriteFile(t, dir, "a.txt", "user's edit\n")
	// A post-checkout hook must not run for planx's own checkout.
	gittest.WriteFileMode(t, dir, ".git/hooks/post-checkout", "#!/bin/sh\ntouch \"$GIT_DIR/../hook-ran\"\ntouch hook-ran\n", 0o755)

	wt := filepath.Join(t.TempDir(), "wt")
	if err := r.Worktrees().Add(ctx, wt, sha); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(wt, "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("worktree a.txt = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(wt, "hook-ran")); err == nil {
		t.Error("post-checkout hook ran in the verification worktree")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "user's edit\n" {
		t.Errorf("user's work tree changed: %q", b)
	}
	if err := os.WriteFile(filepath.Join(wt, "junk"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.Worktrees().Remove(ctx, wt); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(wt); !os.IsNotExist(err) {
		t.Errorf("worktree still there: %v", err)
	}
	if got := gittest.Git(t, dir, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 1 || !strings.Contains(got, "worktree "+r.Root) || strings.Contains(got, wt) {
		t.Errorf("worktree list after remove:\n%s", got)
	}

	hooks, err := r.Config().HooksDir(ctx)
	if err != nil || hooks != filepath.Join(r.CommonDir, "hooks") {
		t.Errorf("HooksDir = %q, %v", hooks, err)
	}
	gittest.Git(t, dir, "config", "core.hooksPath", ".githooks")
	if hooks, err = r.Config().HooksDir(ctx); err != nil || hooks != filepath.Join(r.Root, ".githooks") {
		t.Errorf("HooksDir with core.hooksPath = %q, %v", hooks, err)
	}

	if shallow, err := r.History().IsShallow(ctx); err != nil || shallow {
		t.Errorf("IsShallow = %v, %v", shallow, err)
	}
	gittest.Commit(t, dir, "two")
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, dir, "clone", "-q", "--depth=1", "file://"+dir, clone)
	rc, err := Open(ctx, clone)
	if err != nil {
		t.Fatal(err)
	}
	if shallow, err := rc.History().IsShallow(ctx); err != nil || !shallow {
		t.Errorf("IsShallow of a --depth=1 clone = %v, %v", shallow, err)
	}
}
