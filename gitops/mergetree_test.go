package gitops

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// TestMergeTreesAndAdvance merges two tasks' commits made on one base, the
// way a parallel wave is integrated, and checks git's own view of the result.
func TestMergeTreesAndAdvance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "shared.txt", "one\ntwo\nthree\n")
	base := SHA(gittest.Commit(t, dir, "base"))
	baseTree, err := r.Objects().TreeOf(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	// Two "task" commits on base, made without a work tree.
	mk := func(files map[string][]byte, msg string) SHA {
		tree, err := r.Objects().TreeWithFiles(ctx, baseTree, files)
		if err != nil {
			t.Fatal(err)
		}
		c, err := r.Objects().CommitTree(ctx, tree, msg, base, false)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := mk(map[string][]byte{"a.txt": []byte("a\n")}, "a")
	b := mk(map[string][]byte{"b/b.txt": []byte("b\n")}, "b")
	clash := mk(map[string][]byte{"a.txt": []byte("other\n")}, "clash")

	tree, conflicts, err := r.Objects().MergeTrees(ctx, a, b)
	if err != nil || conflicts != nil {
		t.Fatalf("merge a+b: %v %v", conflicts, err)
	}
	ab, err := r.Objects().CommitTree(ctx, tree, "a+b", a, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "ls-tree", "-r", "--name-only", string(ab)); got != "a.txt\nb/b.txt\nshared.txt" {
		t.Errorf("merged tree lists %q", got)
	}
	if _, conflicts, err := r.Objects().MergeTrees(ctx, ab, clash); err != nil || !reflect.DeepEqual(conflicts, []string{"a.txt"}) {
		t.Errorf("conflict: %v %v, want [a.txt]", conflicts, err)
	}
	// The branch and work tree move from base to ab; a file nobody touches
	// keeps its inode (no checkout churn).
	before, _ := os.Stat(filepath.Join(dir, "shared.txt"))
	if err := r.Landing().Advance(ctx, base, ab, "planx: test"); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(filepath.Join(dir, "shared.txt"))
	if !os.SameFile(before, after) {
		t.Error("shared.txt was rewritten")
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("status after Advance: %q", got)
	}
	if got := gittest.Git(t, dir, "rev-parse", "HEAD"); got != string(ab) {
		t.Errorf("HEAD %s, want %s", got, ab)
	}
	// A stale old value loses the compare-and-swap.
	if err := r.Landing().Advance(ctx, base, ab, "again"); err == nil {
		t.Error("Advance from a stale base succeeded")
	}
	fsck(t, dir)
}

// TestWorktreeSlot moves a linked work tree between commits the way planx
// reuses a slot, and moves it away under a task's name.
func TestWorktreeSlot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	gittest.WriteFile(t, dir, ".gitignore", "cache/\n")
	one := SHA(gittest.Commit(t, dir, "one"))
	gittest.WriteFile(t, dir, "b.txt", "b\n")
	two := SHA(gittest.Commit(t, dir, "two"))
	gittest.WriteFile(t, dir, "c.txt", "c\n")
	three := SHA(gittest.Commit(t, dir, "three"))
	slot := filepath.Join(r.CommonDir, "planx", "worktrees", "run", "slot1")
	if err := r.Worktrees().Add(ctx, slot, one); err != nil {
		t.Fatal(err)
	}
	wt, err := Open(ctx, slot)
	if err != nil {
		t.Fatal(err)
	}
	// A task's leftovers: a change, an untracked file, an ignored cache.
	gittest.WriteFile(t, slot, "a.txt", "changed\n")
	gittest.WriteFile(t, slot, "junk.txt", "x\n")
	if err := wt.CheckoutClean(ctx, three); err != nil {
		t.Fatal(err)
	}
	// An ignored output, and links to directories outside the slot (one
	// ignored, one not) whose files must stay where they are.
	gittest.WriteFile(t, slot, "cache/out", "x\n")
	gittest.WriteFile(t, slot, "junk2.txt", "x\n")
	outside := t.TempDir()
	gittest.WriteFile(t, outside, "keep.txt", "x\n")
	for _, l := range []string{"cache/env", "env"} {
		if err := os.Symlink(outside, filepath.Join(slot, l)); err != nil {
			t.Fatal(err)
		}
	}
	if err := wt.CheckoutClean(ctx, two); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, slot, "status", "--porcelain", "--ignored"); got != "" {
		t.Errorf("slot after CheckoutClean: %q, want nothing untracked or ignored", got)
	}
	if _, err := os.Stat(filepath.Join(outside, "keep.txt")); err != nil {
		t.Errorf("a link's target was emptied: %v", err)
	}
	if got := gittest.Git(t, slot, "rev-parse", "HEAD"); got != string(two) {
		t.Errorf("slot at %s, want %s", got, two)
	}
	kept := filepath.Join(r.CommonDir, "planx", "worktrees", "run", "T002")
	if err := r.Worktrees().Move(ctx, slot, kept); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "worktree", "list", "--porcelain"); !strings.Contains(got, "worktree "+kept) || strings.Contains(got, slot) {
		t.Errorf("worktree list after the move:\n%s", got)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("main work tree touched: %q", got)
	}
	fsck(t, dir)
}

// TestTreeFromBase puts the base's bytes back at changed paths and drops
// paths the base does not have, leaving every other file and the user's
// index alone.
func TestTreeFromBase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "calc.go", "package calc\n")
	gittest.WriteFile(t, dir, "pkg/calc_test.go", "base test\n")
	base := SHA(gittest.Commit(t, dir, "base"))
	gittest.WriteFile(t, dir, "calc.go", "package calc // done\n")
	gittest.WriteFile(t, dir, "pkg/calc_test.go", "weakened\n")
	gittest.WriteFile(t, dir, "pkg/zz_test.go", "takeover\n")
	task := SHA(gittest.Commit(t, dir, "task"))
	index := gittest.Git(t, dir, "ls-files", "-s")

	c, err := r.Objects().TreeFromBase(ctx, task, base, []string{"pkg/calc_test.go", "pkg/zz_test.go"}, "judge")
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "ls-tree", "-r", "--name-only", string(c)); got != "calc.go\npkg/calc_test.go" {
		t.Errorf("judge tree lists %q", got)
	}
	if got := gittest.Git(t, dir, "show", string(c)+":pkg/calc_test.go"); got != "base test" {
		t.Errorf("test file = %q, want the base's", got)
	}
	if got := gittest.Git(t, dir, "show", string(c)+":calc.go"); got != "package calc // done" {
		t.Errorf("code = %q, want the task's", got)
	}
	if got := gittest.Git(t, dir, "rev-parse", string(c)+"^"); got != string(base) {
		t.Errorf("parent %s, want the base %s", got, base)
	}
	if got := gittest.Git(t, dir, "ls-files", "-s"); got != index {
		t.Error("the user's index changed")
	}
	fsck(t, dir)
}
