package wave

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// A slot Prepare checked out at a commit is taken for it, or for a commit
// made again with its tree (Moved), without another checkout: its HEAD
// moves, its index is the one the preparation wrote; a slot prepared at
// another commit, or used and given back since, is checked out afresh.
func TestPoolPrepare(t *testing.T) {
	t.Parallel()
	repo, one, two := repoAt(t)
	ctx := context.Background()
	p := NewPool(repo)
	var slots []string
	for range 3 {
		dir, err := p.Take(ctx, one)
		if err != nil {
			t.Fatal(err)
		}
		gittest.WriteFile(t, dir, "left.txt", "a task's leftovers\n")
		slots = append(slots, dir)
	}
	for _, dir := range slots {
		p.Put(dir)
	}
	p.Prepare(ctx, two, 2)()
	// two made again, same tree, another message: what a sealed commit is.
	tree := gittest.Git(t, repo.Root, "rev-parse", string(two)+"^{tree}")
	sealed := gitops.SHA(gittest.Git(t, repo.Root, "commit-tree", tree, "-p", string(one), "-m", "two, sealed"))
	p.Moved(two, sealed)

	index := func(dir string) os.FileInfo {
		t.Helper()
		gitDir := gittest.Git(t, dir, "rev-parse", "--absolute-git-dir")
		fi, err := os.Stat(filepath.Join(gitDir, "index"))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	clean := func(dir string, at gitops.SHA) {
		t.Helper()
		if got := gittest.Git(t, dir, "rev-parse", "HEAD"); got != string(at) {
			t.Errorf("slot %s at %s, want %s", dir, got, at)
		}
		if got := gittest.Git(t, dir, "status", "--porcelain", "--ignored"); got != "" {
			t.Errorf("slot %s not clean: %q", dir, got)
		}
	}
	before := map[string]os.FileInfo{}
	for _, dir := range slots {
		before[dir] = index(dir)
	}
	var prepared []string
	for range 2 {
		dir, err := p.Take(ctx, sealed)
		if err != nil {
			t.Fatal(err)
		}
		if !os.SameFile(index(dir), before[dir]) || !index(dir).ModTime().Equal(before[dir].ModTime()) {
			t.Errorf("taking the prepared slot %s wrote its index: a checkout", dir)
		}
		clean(dir, sealed)
		if _, err := os.Stat(filepath.Join(dir, "b.txt")); err != nil {
			t.Errorf("prepared slot lacks b.txt: %v", err)
		}
		prepared = append(prepared, dir)
	}
	// The third was not prepared: checked out, the leftovers gone.
	third, err := p.Take(ctx, sealed)
	if err != nil {
		t.Fatal(err)
	}
	clean(third, sealed)
	for _, dir := range prepared {
		if dir == third {
			t.Fatalf("slot %s taken twice", dir)
		}
	}
	// Used and given back: no longer ready, checked out again.
	gittest.WriteFile(t, prepared[0], "left.txt", "junk\n")
	p.Put(prepared[0])
	again, err := p.Take(ctx, sealed)
	if err != nil {
		t.Fatal(err)
	}
	clean(again, sealed)
	// Prepared for one commit, taken for another: checked out there.
	p.Put(prepared[1])
	p.Prepare(ctx, two, 1)()
	other, err := p.Take(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	clean(other, one)
	if _, err := os.Stat(filepath.Join(other, "b.txt")); err == nil {
		t.Error("a slot prepared at two and taken for one holds two's b.txt")
	}
	for _, dir := range []string{third, again, other} {
		p.Put(dir)
	}
	DropRunWorktrees(repo, nil)
}
