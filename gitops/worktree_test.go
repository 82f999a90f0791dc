package gitops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// TestForgetMissing deletes linked work trees behind git's back, as a crash
// during a removal leaves them, and checks with git worktree list that
// ForgetMissing forgets exactly those under its root: git then adds a work
// tree at the same path again, and one elsewhere stays registered.
func TestForgetMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	base := SHA(gittest.Commit(t, dir, "base"))
	root := filepath.Join(r.CommonDir, "planx", "worktrees")
	gone := filepath.Join(root, "run", "slot1")
	kept := filepath.Join(root, "run", "slot2")
	elsewhere := filepath.Join(t.TempDir(), "mine")
	for _, d := range []string{gone, kept, elsewhere} {
		if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := r.Worktrees().Add(ctx, d, base); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{gone, elsewhere} {
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Worktrees().AddEmpty(ctx, gone, base); err == nil || !strings.Contains(err.Error(), "missing but already registered") {
		t.Fatalf("git worktree add over a deleted work tree: %v, want git's refusal", err)
	}
	forgot, err := r.Worktrees().ForgetMissing(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(filepath.Dir(gone)); !reflect.DeepEqual(forgot, []string{filepath.Join(real, "slot1")}) {
		t.Fatalf("forgot %q, want only %s", forgot, gone)
	}
	list := gittest.Git(t, dir, "worktree", "list", "--porcelain")
	if strings.Contains(list, "slot1") || !strings.Contains(list, "slot2") || !strings.Contains(list, "mine") {
		t.Fatalf("git worktree list after ForgetMissing:\n%s", list)
	}
	if err := r.Worktrees().AddEmpty(ctx, gone, base); err != nil {
		t.Fatalf("add again where a work tree was forgotten: %v", err)
	}
	if again, err := r.Worktrees().ForgetMissing(ctx, root); err != nil || len(again) != 0 {
		t.Fatalf("second ForgetMissing: %q, %v; want nothing to forget", again, err)
	}
	fsck(t, dir)
}

// Runs in several work trees of one repository add slots named alike
// (slot1 under each pool) at once: git names their administrative
// directories after slot1, and without a lock across them one add reads
// another's half-written files and fails ("failed to read
// .git/worktrees/slot1/commondir"). Each opens the repository, as
// separate planx processes would; the lock is a file's, across them.
func TestWorktreesAddAlikeAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	sha := SHA(gittest.Commit(t, dir, "base"))
	pools := t.TempDir()
	owners := []string{"one", "two", "three", "four", "five", "six"}
	for i := range 15 {
		errs := make(chan error, len(owners))
		for _, owner := range owners {
			go func() {
				r, err := Open(ctx, dir)
				if err == nil {
					err = r.Worktrees().AddEmpty(ctx, filepath.Join(pools, owner, fmt.Sprintf("slot%d", i)), sha)
				}
				errs <- err
			}()
		}
		for range owners {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", i, err)
			}
		}
	}
	out := gittest.Git(t, dir, "worktree", "list", "--porcelain")
	if n := strings.Count(out, "worktree "+pools); n != 15*len(owners) {
		t.Errorf("%d work trees under the pools, want %d:\n%s", n, 15*len(owners), out)
	}
}
