package aside

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/run/gaterun"
)

// The user's own ignored files are kept up to the limit, build outputs and
// dependency environments never; what a task deletes comes back.
func TestCopy(t *testing.T) {
	t.Parallel()
	root, kept := t.TempDir(), t.TempDir()
	gittest.WriteFile(t, root, "local.env", "KEY=1\n")
	gittest.WriteFile(t, root, "data/a.csv", "1,2\n")
	gittest.WriteFile(t, root, "data/big.bin", "0123456789")
	gittest.WriteFile(t, root, "out/app", "binary\n")
	gittest.WriteFile(t, root, "node_modules/x/index.js", "x\n")
	entries := []string{"data/", "local.env", "node_modules/", "out/"}
	left := Copy(root, kept, entries, []string{"node_modules/"}, 12)
	if len(left) != 1 || left[0].Path != "data/big.bin" || left[0].Size != 10 {
		t.Errorf("left %v, want data/big.bin (over the limit)", left)
	}
	for _, p := range []string{"out/app", "node_modules/x/index.js", "data/big.bin"} {
		if _, err := os.Stat(filepath.Join(kept, p)); err == nil {
			t.Errorf("%s kept", p)
		}
	}
	if err := os.Remove(filepath.Join(root, "local.env")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if gone := Gone(root, entries); !slices.Equal(gone, []string{"local.env", "out/"}) {
		t.Errorf("gone %v, want local.env and out/", gone)
	}
	back, err := gaterun.PutBack(root, kept, t.TempDir())
	if err != nil || !slices.Equal(back, []gaterun.Back{{Path: "local.env"}}) {
		t.Errorf("put back %v (%v), want local.env", back, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "local.env")); err != nil || string(b) != "KEY=1\n" {
		t.Errorf("local.env after PutBack: %q (%v)", b, err)
	}
}

// A file the task wrote over, or a file where a kept directory was, is
// put back like a deletion, the task's version moved aside; an untouched
// file is left alone; a file over the limit that changed is Lost.
func TestPutBackOverwritten(t *testing.T) {
	t.Parallel()
	root, kept, aside := t.TempDir(), t.TempDir(), t.TempDir()
	gittest.WriteFile(t, root, "local.env", "KEY=1\n")
	gittest.WriteFile(t, root, "data/a.csv", "1,2\n")
	gittest.WriteFile(t, root, "keep.txt", "same\n")
	gittest.WriteFile(t, root, "big.bin", "0123456789")
	left := Copy(root, kept, []string{"data/", "keep.txt", "local.env", "big.bin"}, nil, 15)
	if len(left) != 1 || left[0].Path != "big.bin" {
		t.Fatalf("left %v, want big.bin", left)
	}
	gittest.WriteFile(t, root, "local.env", "oops\n")
	if err := os.RemoveAll(filepath.Join(root, "data")); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, root, "data", "a file\n")
	back, err := gaterun.PutBack(root, kept, aside)
	want := []gaterun.Back{{Path: "data/a.csv", Aside: "data"}, {Path: "local.env", Aside: "local.env"}}
	if err != nil || !slices.Equal(back, want) {
		t.Errorf("put back %v (%v), want %v", back, err, want)
	}
	for p, want := range map[string]string{"local.env": "KEY=1\n", "data/a.csv": "1,2\n", "keep.txt": "same\n"} {
		if b, err := os.ReadFile(filepath.Join(root, p)); err != nil || string(b) != want {
			t.Errorf("%s after PutBack: %q (%v), want %q", p, b, err, want)
		}
	}
	for p, want := range map[string]string{"local.env": "oops\n", "data": "a file\n"} {
		if b, err := os.ReadFile(filepath.Join(aside, p)); err != nil || string(b) != want {
			t.Errorf("the task's %s aside: %q (%v), want %q", p, b, err, want)
		}
	}
	if lost := Lost(root, left); len(lost) != 0 {
		t.Errorf("lost %v before big.bin changed", lost)
	}
	gittest.WriteFile(t, root, "big.bin", "other")
	if lost := Lost(root, left); len(lost) != 1 || lost[0].Path != "big.bin" {
		t.Errorf("lost %v, want big.bin", lost)
	}
}
