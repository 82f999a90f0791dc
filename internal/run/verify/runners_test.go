package verify

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/ledger/records"
)

func TestRunnersChanged(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(p, s string) { t.Helper(); gittest.WriteFile(t, root, p, s) }
	for _, p := range []string{
		"node_modules/jest-circus/build/run.js", "node_modules/@jest/core/index.js", "node_modules/lodash/index.js",
		"web/node_modules/vitest/dist/cli.js", ".venv/pyvenv.cfg", ".venv/lib/python3.12/site-packages/_pytest/main.py",
		".venv/lib/python3.12/site-packages/requests/api.py", "notavenv/lib/python3.12/site-packages/_pytest/main.py", "linked/README",
	} {
		write(p, "v1\n")
	}
	// git names a link to a directory as a file (no trailing slash): no
	// environment of the work tree's, whatever it points at.
	if err := os.Symlink("../node_modules", filepath.Join(root, "linked", "node_modules")); err != nil {
		t.Fatal(err)
	}
	ignored := []string{".venv/", "linked/node_modules", "node_modules/", "notavenv/", "web/node_modules/", "secret.env"}
	roots := runnerRoots(root, ignored)
	var rel []string
	for _, r := range roots {
		p, _ := filepath.Rel(root, r)
		rel = append(rel, filepath.ToSlash(p))
	}
	want := []string{".venv/lib/python3.12/site-packages/_pytest", "node_modules/@jest", "node_modules/jest-circus", "web/node_modules/vitest"}
	slices.Sort(rel)
	if !slices.Equal(rel, want) {
		t.Fatalf("runnerRoots = %v, want %v", roots, want)
	}
	// The file system's clock is coarse: the mark is a file's change time.
	write("mark", "")
	var mark records.Mark
	if fi, err := os.Stat(filepath.Join(root, "mark")); err == nil {
		mark = records.Mark(fi.ModTime().UnixNano())
	}
	time.Sleep(50 * time.Millisecond)
	if got := runnersChanged(root, roots, mark, 5); len(got) != 0 {
		t.Fatalf("nothing changed yet, got %v", got)
	}
	// Not runners, or written by running one: not counted.
	write("node_modules/lodash/index.js", "v2\n")
	write(".venv/lib/python3.12/site-packages/requests/api.py", "v2\n")
	write(".venv/lib/python3.12/site-packages/_pytest/__pycache__/main.cpython-312.pyc", "x")
	write("node_modules/jest-circus/.cache/x", "x")
	if got := runnersChanged(root, roots, mark, 5); len(got) != 0 {
		t.Fatalf("only other packages and caches changed, got %v", got)
	}
	write("node_modules/jest-circus/build/run.js", "v2\n")
	write(".venv/lib/python3.12/site-packages/_pytest/new.py", "x")
	got := runnersChanged(root, roots, mark, 5)
	slices.Sort(got)
	if want := []string{".venv/lib/python3.12/site-packages/_pytest/new.py", "node_modules/jest-circus/build/run.js"}; !slices.Equal(got, want) {
		t.Fatalf("runnersChanged = %v, want %v", got, want)
	}
}

func TestChangesDeps(t *testing.T) {
	t.Parallel()
	for files, want := range map[string]bool{"package-lock.json": true, "web/package.json": true, "requirements.txt": true,
		"src/app.js": false, "uv.lock": true, "docs/pyproject.md": false} {
		if got := ChangesDeps([]string{files}); got != want {
			t.Errorf("ChangesDeps(%q) = %v, want %v", files, got, want)
		}
	}
}
