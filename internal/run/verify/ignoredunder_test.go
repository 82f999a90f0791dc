package verify

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// ignoredUnder tells the ignored files a task left that the rules read
// before it ignore from those only rules it wrote ignore, whatever the work
// tree's rules say now.
func TestIgnoredUnder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	r, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, ".gitignore", "/bin/\n*.egg-info/\nnode_modules/.cache/\n*.local\n")
	gittest.WriteFile(t, dir, "pkg/.gitignore", "__pycache__/\n")
	gittest.WriteFile(t, dir, "pkg/a.py", "x = 1\n")
	gittest.Commit(t, dir, "base")
	gittest.WriteFile(t, dir, ".git/info/exclude", "*.scratch\n")
	before, err := readIgnoreRules(ctx, r, false)
	if err != nil {
		t.Fatal(err)
	}

	// The task's work: outputs of the build and the tests, and source it
	// hides behind rules of its own.
	for _, f := range []string{"bin/calc", "calc.egg-info/PKG-INFO", "node_modules/.cache/b/x.json",
		"pkg/__pycache__/a.pyc", "mul.local", "notes.scratch", "mul.lib.sh", "lib/mul.sh", "out/a.local", "out/src.go"} {
		gittest.WriteFile(t, dir, f, "x\n")
	}
	gittest.WriteFile(t, dir, ".gitignore", "/bin/\n*.egg-info/\nnode_modules/.cache/\n*.local\nmul.lib.sh\nout/\n")
	gittest.WriteFile(t, dir, "lib/.gitignore", "*\n")
	now, err := r.Index().IgnoredFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ignoredUnder(ctx, r, before, now)
	if err != nil {
		t.Fatal(err)
	}
	// node_modules/ is listed whole, every file below it ignored by the old
	// rules; out/ holds a file the old rules ignore and one they do not.
	want := []string{"bin/", "calc.egg-info/", "mul.local", "node_modules/", "notes.scratch", "pkg/__pycache__/"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("listed now %q\nignored under the rules before: %q, want %q", now, got, want)
	}

	// A watch an executor rewrote cannot make planx write outside the scratch.
	bad := IgnoreRules{Files: map[string]string{"../../escape/.gitignore": "*\n", ".git/hooks/.gitignore": "*\n"}}
	if got, err := ignoredUnder(ctx, r, bad, []string{"../x", "mul.lib.sh"}); err != nil || len(got) != 0 {
		t.Fatalf("ignoredUnder(bad rules) = %q, %v", got, err)
	}
}

// readIgnoreRules reads the rules in force: every .gitignore git reads,
// info/exclude, and from the index alone in a tree just cleaned.
func TestReadIgnoreRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	r, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, ".gitignore", "/bin/\n*.egg-info/\nnode_modules/.cache/\n*.local\n")
	gittest.WriteFile(t, dir, "pkg/.gitignore", "__pycache__/\n")
	gittest.WriteFile(t, dir, "pkg/a.py", "x = 1\n")
	gittest.Commit(t, dir, "base")
	gittest.WriteFile(t, dir, ".git/info/exclude", "*.scratch\n")
	before, err := readIgnoreRules(ctx, r, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Files) != 2 || before.Exclude != "*.scratch\n" {
		t.Fatalf("rules read: %+v", before)
	}
	// In a tree with no untracked file, the index's .gitignore files are
	// all there is; an untracked one is read only by the walk.
	if cleaned, err := readIgnoreRules(ctx, r, true); err != nil || !reflect.DeepEqual(cleaned, before) {
		t.Fatalf("rules read from the index: %+v, %v; walked: %+v", cleaned, err, before)
	}
	gittest.WriteFile(t, dir, "new/.gitignore", "*.tmp\n")
	if walked, err := readIgnoreRules(ctx, r, false); err != nil || walked.Files["new/.gitignore"] != "*.tmp\n" {
		t.Fatalf("the walk missed an untracked .gitignore: %+v, %v", walked, err)
	}
	if err := os.Remove(filepath.Join(dir, "new/.gitignore")); err != nil {
		t.Fatal(err)
	}
}
