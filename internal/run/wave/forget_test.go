package wave

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// TestForgetMissing deletes linked work trees behind git's back, as a crash
// during a removal leaves them, and checks with git worktree list that
// forgetMissing forgets exactly those under its root: git then adds a work
// tree at the same path again, and one elsewhere stays registered.
func TestForgetMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	r, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	base := gitops.SHA(gittest.Commit(t, dir, "base"))
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
	forgot, err := forgetMissing(ctx, r, root)
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(filepath.Dir(gone)); !reflect.DeepEqual(forgot, []string{filepath.Join(real, "slot1")}) {
		t.Fatalf("forgot %q, want only %s", forgot, gone)
	}
	list := gittest.Git(t, dir, "worktree", "list", "--porcelain")
	if strings.Contains(list, "slot1") || !strings.Contains(list, "slot2") || !strings.Contains(list, "mine") {
		t.Fatalf("git worktree list after forgetMissing:\n%s", list)
	}
	if err := r.Worktrees().AddEmpty(ctx, gone, base); err != nil {
		t.Fatalf("add again where a work tree was forgotten: %v", err)
	}
	if again, err := forgetMissing(ctx, r, root); err != nil || len(again) != 0 {
		t.Fatalf("second forgetMissing: %q, %v; want nothing to forget", again, err)
	}
	gittest.Git(t, dir, "fsck", "--strict", "--no-progress")
}
