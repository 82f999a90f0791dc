package gitops

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// TestMergeTreesAndAdvance merges two tasks' commits made on one base, the
// way a parallel wave is integrated, and checks git's own view of the result.
func TestMergeTreesAndAdvance(t *testing.T) {
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "shared.txt", "one\ntwo\nthree\n")
	base := SHA(gittest.Commit(t, dir, "base"))
	baseTree, err := r.TreeOf(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	// Two "task" commits on base, made without a work tree.
	mk := func(files map[string][]byte, msg string) SHA {
		tree, err := r.TreeWithFiles(ctx, baseTree, files)
		if err != nil {
			t.Fatal(err)
		}
		c, err := r.CommitTreeOnly(ctx, tree, msg, base)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := mk(map[string][]byte{"a.txt": []byte("a\n")}, "a")
	b := mk(map[string][]byte{"b/b.txt": []byte("b\n")}, "b")
	clash := mk(map[string][]byte{"a.txt": []byte("other\n")}, "clash")

	tree, conflicts, err := r.MergeTrees(ctx, a, b)
	if err != nil || conflicts != nil {
		t.Fatalf("merge a+b: %v %v", conflicts, err)
	}
	ab, err := r.CommitTreeOnly(ctx, tree, "a+b", a)
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "ls-tree", "-r", "--name-only", string(ab)); got != "a.txt\nb/b.txt\nshared.txt" {
		t.Errorf("merged tree lists %q", got)
	}
	if _, conflicts, err := r.MergeTrees(ctx, ab, clash); err != nil || !reflect.DeepEqual(conflicts, []string{"a.txt"}) {
		t.Errorf("conflict: %v %v, want [a.txt]", conflicts, err)
	}
	// The branch and work tree move from base to ab; a file nobody touches
	// keeps its inode (no checkout churn).
	before, _ := os.Stat(filepath.Join(dir, "shared.txt"))
	if err := r.Advance(ctx, base, ab, "planx: test"); err != nil {
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
	if err := r.Advance(ctx, base, ab, "again"); err == nil {
		t.Error("Advance from a stale base succeeded")
	}
	fsck(t, dir)
}
