package gitops

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// A commit of files on the empty tree, pushed to a bare remote with a glob
// refspec and fetched into a clone, reads back as the same files; a push
// that is not a fast-forward moves nothing (atomic).
func TestRemoteCarriesFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	tip := SHA(gittest.Commit(t, dir, "one"))
	bare := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, dir, "init", "-q", "--bare", bare)
	empty, err := r.Objects().EmptyTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"state.json": []byte("{}\n"), "runs/x/T001-step1.log": []byte("out\n")}
	tree, err := r.Objects().TreeWithFiles(ctx, empty, files)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Objects().CommitTree(ctx, tree, "carry\n", tip, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Refs().Update(ctx, "refs/planx/runs/x/ci/T001", c, "", "test"); err != nil {
		t.Fatal(err)
	}
	if err := r.Remote(bare).Push(ctx, "HEAD:refs/heads/main", "+refs/planx/runs/x/*:refs/planx/runs/x/*"); err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, dir, "clone", "-q", bare, clone)
	cr, err := Open(ctx, clone)
	if err != nil {
		t.Fatal(err)
	}
	if err := cr.Remote("origin").Fetch(ctx, "+refs/planx/runs/x/*:refs/planx/runs/x/*", "+refs/notes/planx*:refs/notes/planx*"); err != nil {
		t.Fatal(err)
	}
	got, err := cr.Objects().Files(ctx, tree)
	if err != nil || len(got) != 2 || string(got["state.json"]) != "{}\n" || string(got["runs/x/T001-step1.log"]) != "out\n" {
		t.Fatalf("Files = %q, %v", got, err)
	}
	// Not a fast-forward: refused, and the other refspec did not move.
	other := SHA(gittest.Git(t, dir, "commit-tree", "-m", "other", string(tree)))
	if err := r.Remote(bare).Push(ctx, string(other)+":refs/heads/main", string(tip)+":refs/heads/second"); err == nil {
		t.Fatal("a push that is not a fast-forward went through")
	}
	if out, _ := gittest.TryGit(bare, "", "rev-parse", "-q", "--verify", "refs/heads/second"); out != "" {
		t.Errorf("an atomic push moved refs/heads/second to %s", out)
	}
}
