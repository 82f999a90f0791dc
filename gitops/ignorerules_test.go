package gitops

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// IgnoreRules reads the rules in force: every .gitignore git reads,
// info/exclude, and from the index alone in a tree just cleaned.
func TestIgnoreRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, ".gitignore", "/bin/\n*.egg-info/\nnode_modules/.cache/\n*.local\n")
	gittest.WriteFile(t, dir, "pkg/.gitignore", "__pycache__/\n")
	gittest.WriteFile(t, dir, "pkg/a.py", "x = 1\n")
	gittest.Commit(t, dir, "base")
	gittest.WriteFile(t, dir, ".git/info/exclude", "*.scratch\n")
	before, err := r.Index().IgnoreRules(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Files) != 2 || before.Exclude != "*.scratch\n" {
		t.Fatalf("rules read: %+v", before)
	}
	// In a tree with no untracked file, the index's .gitignore files are
	// all there is; an untracked one is read only by the walk.
	if cleaned, err := r.Index().IgnoreRules(ctx, true); err != nil || !reflect.DeepEqual(cleaned, before) {
		t.Fatalf("rules read from the index: %+v, %v; walked: %+v", cleaned, err, before)
	}
	gittest.WriteFile(t, dir, "new/.gitignore", "*.tmp\n")
	if walked, err := r.Index().IgnoreRules(ctx, false); err != nil || walked.Files["new/.gitignore"] != "*.tmp\n" {
		t.Fatalf("the walk missed an untracked .gitignore: %+v, %v", walked, err)
	}
	if err := os.Remove(filepath.Join(dir, "new/.gitignore")); err != nil {
		t.Fatal(err)
	}
}
