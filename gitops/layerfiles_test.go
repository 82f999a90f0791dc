package gitops

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// CommitFiles keeps a layer's version of paths on top of a commit,
// touching neither the index nor the work tree.
func TestLayerFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, ".gitignore", "local.env\n")
	gittest.WriteFile(t, dir, "same.txt", "same\n")
	gittest.WriteFile(t, dir, "edited.txt", "before\n")
	gittest.WriteFile(t, dir, "gone.txt", "gone\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "base")
	base := SHA(gittest.Git(t, dir, "rev-parse", "HEAD"))
	layer := t.TempDir()
	if err := os.WriteFile(filepath.Join(layer, "run.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("same.txt", filepath.Join(layer, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(layer, "local.env"), []byte("TOKEN=secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, left, err := r.Objects().CommitFiles(ctx, base, layer, []string{"local.env", "run.sh", "link"}, []string{"same.txt"}, "kept\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0] != "local.env" {
		t.Errorf("left out %q, want the ignored local.env", left)
	}
	if got := gittest.Git(t, dir, "ls-tree", "-r", "--format=%(objectmode) %(path)", string(c)); got != "100644 .gitignore\n100644 edited.txt\n100644 gone.txt\n120000 link\n100755 run.sh" {
		t.Errorf("kept tree:\n%s", got)
	}
	if got := gittest.Git(t, dir, "rev-parse", string(c)+"^"); got != string(base) {
		t.Errorf("kept commit's parent = %s, want %s", got, base)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("the work tree or index changed:\n%s", got)
	}
	fsck(t, dir)
}
