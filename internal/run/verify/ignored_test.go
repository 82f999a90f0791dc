package verify

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// The user's own ignored files are kept up to the limit, build outputs and
// dependency environments never; what a task deletes comes back.
func TestKeepIgnored(t *testing.T) {
	root, kept := t.TempDir(), t.TempDir()
	gittest.WriteFile(t, root, "local.env", "KEY=1\n")
	gittest.WriteFile(t, root, "data/a.csv", "1,2\n")
	gittest.WriteFile(t, root, "data/big.bin", "0123456789")
	gittest.WriteFile(t, root, "out/app", "binary\n")
	gittest.WriteFile(t, root, "node_modules/x/index.js", "x\n")
	entries := []string{"data/", "local.env", "node_modules/", "out/"}
	left := KeepIgnored(root, kept, entries, []string{"node_modules/"}, 12)
	if !slices.Equal(left, []string{"data/big.bin"}) {
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
	back, err := PutBack(root, kept)
	if err != nil || !slices.Equal(back, []string{"local.env"}) {
		t.Errorf("put back %v (%v), want local.env", back, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "local.env")); err != nil || string(b) != "KEY=1\n" {
		t.Errorf("local.env after PutBack: %q (%v)", b, err)
	}
}
