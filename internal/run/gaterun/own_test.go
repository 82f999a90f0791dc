package gaterun

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// ownFixture is a user's work tree with ignored data (one file over the
// limit, a build output inside data/, a dependency environment), the
// run's copy of it, and a checkout given its own copy (OwnIgnored).
func ownFixture(t *testing.T) (root, kept, dir string, o *Own, rest []string) {
	t.Helper()
	root, kept, dir = t.TempDir(), t.TempDir(), t.TempDir()
	gittest.WriteFile(t, root, "local.env", "KEY=1\n")
	gittest.WriteFile(t, root, "data/a.csv", "1,2\n")
	gittest.WriteFile(t, root, "data/sub/b.csv", "3,4\n")
	gittest.WriteFile(t, root, "data/big.bin", "0123456789abcdef")
	gittest.WriteFile(t, root, "data/__pycache__/m.pyc", "bytecode")
	gittest.WriteFile(t, root, "node_modules/x/index.js", "x\n")
	if err := os.Chmod(filepath.Join(root, "data", "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	// What aside.Copy keeps of it under a limit of 14 bytes: not
	// the build output, the dependency environment nor data/big.bin.
	for _, p := range []string{"local.env", "data/a.csv", "data/sub/b.csv"} {
		if err := CopyFile(filepath.Join(root, p), filepath.Join(kept, p)); err != nil {
			t.Fatal(err)
		}
	}
	o, rest = OwnIgnored(root, kept, dir, []string{"data/", "local.env", "node_modules/"})
	return root, kept, dir, o, rest
}

// A checkout's own copy holds the kept files as real files, links what
// planx holds no copy of, and leaves the entries with nothing kept (a
// dependency environment) to be linked.
func TestOwnIgnoredCopies(t *testing.T) {
	t.Parallel()
	_, _, dir, _, rest := ownFixture(t)
	if !slices.Equal(rest, []string{"node_modules/"}) {
		t.Errorf("left to link %v, want node_modules/", rest)
	}
	for _, p := range []string{"local.env", "data/a.csv", "data/sub/b.csv"} {
		if fi, err := os.Lstat(filepath.Join(dir, p)); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s in the checkout: %v (%v), want a regular file", p, fi, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "data", "sub")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the copy of the private data/sub: %v (%v), want mode 0700", fi, err)
	}
	for _, p := range []string{"data/big.bin", "data/__pycache__"} {
		if fi, err := os.Lstat(filepath.Join(dir, p)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s in the checkout: %v (%v), want a link", p, fi, err)
		}
	}
}

// What a task does to its own copy never reaches the user's files: its
// deletions and overwrites are said, its versions kept aside, the new
// files it added moved to the user's work tree, and the copy removed.
func TestOwnSettle(t *testing.T) {
	t.Parallel()
	root, _, dir, o, _ := ownFixture(t)
	aside := t.TempDir()
	if err := os.RemoveAll(filepath.Join(dir, "data", "sub")); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, "local.env", "oops\n")
	gittest.WriteFile(t, dir, "data/new.csv", "5,6\n")
	if err := os.Remove(filepath.Join(dir, "data", "big.bin")); err != nil { // the link only
		t.Fatal(err)
	}
	back, moved, err := o.Settle(aside)
	want := []Back{{Path: "data/sub/b.csv"}, {Path: "local.env", Aside: "local.env"}}
	if err != nil || !slices.Equal(back, want) || !slices.Equal(moved, []string{"data/new.csv"}) {
		t.Errorf("settled %v, moved %v (%v), want %v and data/new.csv", back, moved, err, want)
	}
	for p, want := range map[string]string{"local.env": "KEY=1\n", "data/sub/b.csv": "3,4\n", "data/big.bin": "0123456789abcdef",
		"data/new.csv": "5,6\n", "data/__pycache__/m.pyc": "bytecode"} {
		if b, err := os.ReadFile(filepath.Join(root, p)); err != nil || string(b) != want {
			t.Errorf("the user's %s: %q (%v), want %q", p, b, err, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(aside, "local.env")); err != nil || string(b) != "oops\n" {
		t.Errorf("the task's local.env kept aside: %q (%v)", b, err)
	}
	for _, p := range []string{"local.env", "data"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s still in the checkout after Settle", p)
		}
	}
	msgs := DescribeBack(back, "the task", aside, true)
	if len(msgs) != 2 || !strings.Contains(msgs[0], "deleted 1 ignored file(s)") || !strings.Contains(msgs[0], "yours were not touched: data/sub/b.csv") ||
		!strings.Contains(msgs[1], "kept the task's in "+aside+": local.env") {
		t.Errorf("said %q", msgs)
	}
}

// A new file the task wrote where the user's work tree has one by now
// (another task of the wave added it first) stays the user's: the task's
// is kept aside, as an overwrite.
func TestOwnSettleTaken(t *testing.T) {
	t.Parallel()
	root, _, dir, o, _ := ownFixture(t)
	aside := t.TempDir()
	gittest.WriteFile(t, dir, "data/new.csv", "the task's\n")
	gittest.WriteFile(t, root, "data/new.csv", "first\n")
	back, moved, err := o.Settle(aside)
	if err != nil || !slices.Equal(back, []Back{{Path: "data/new.csv", Aside: "data/new.csv"}}) || len(moved) != 0 {
		t.Errorf("settled %v, moved %v (%v), want data/new.csv kept aside", back, moved, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "data", "new.csv")); string(b) != "first\n" {
		t.Errorf("the user's data/new.csv: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(aside, "data", "new.csv")); string(b) != "the task's\n" {
		t.Errorf("aside: %q", b)
	}
}

// Where the run keeps nothing (keep_ignored below 0, or nothing of the
// user's), every entry is left to be linked, as before copies.
func TestOwnIgnoredNothingKept(t *testing.T) {
	t.Parallel()
	root, dir := t.TempDir(), t.TempDir()
	gittest.WriteFile(t, root, "local.env", "KEY=1\n")
	o, rest := OwnIgnored(root, filepath.Join(t.TempDir(), "none"), dir, []string{"local.env"})
	if o != nil || !slices.Equal(rest, []string{"local.env"}) {
		t.Errorf("own %v, left to link %v; want none and local.env", o, rest)
	}
}
