package gaterun

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// Links are made to the entries that exist, in place of a checkout's empty
// directory (a submodule's), never inside one already linked; unlinking
// puts the empty directory back and leaves what a gate put in a link's
// place.
func TestLinkIgnored(t *testing.T) {
	root, wt := t.TempDir(), t.TempDir()
	gittest.WriteFile(t, root, "node_modules/x/index.js", "x\n")
	gittest.WriteFile(t, root, "sub/a.c", "int a;\n")
	gittest.WriteFile(t, root, "local.env", "K=v\n")
	if err := os.MkdirAll(filepath.Join(wt, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	made := LinkIgnored(root, wt, []string{"node_modules/", "node_modules/x/", "sub", "local.env", "gone/", "../out"})
	if len(made) != 3 {
		t.Fatalf("links made = %+v, want node_modules, sub and local.env", made)
	}
	if b, err := os.ReadFile(filepath.Join(wt, "node_modules/x/index.js")); err != nil || string(b) != "x\n" {
		t.Errorf("through the link: %q, %v", b, err)
	}
	if err := os.Remove(filepath.Join(wt, "local.env")); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, wt, "local.env", "a gate's own\n")
	UnlinkIgnored(made)
	if fi, err := os.Lstat(filepath.Join(wt, "sub")); err != nil || !fi.IsDir() {
		t.Errorf("the submodule's empty directory is not back: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(wt, "node_modules")); err == nil {
		t.Error("the link to node_modules is still there")
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "local.env")); string(b) != "a gate's own\n" {
		t.Errorf("a gate's file in a link's place was removed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules/x/index.js")); err != nil {
		t.Errorf("the work tree's node_modules: %v", err)
	}
}

func TestDepEnvsAndCacheEntries(t *testing.T) {
	root := t.TempDir()
	gittest.WriteFile(t, root, "env/pyvenv.cfg", "home = /usr\n")
	got := DepEnvs(root, []string{"node_modules/", ".venv/", "env/", "build/", "venv"})
	if want := []string{"node_modules/", ".venv/", "env/"}; !slices.Equal(got, want) {
		t.Errorf("DepEnvs = %q, want %q", got, want)
	}
	for e, want := range map[string]bool{"__pycache__/": true, "a/b.pyc": true, ".pytest_cache/": true, "node_modules/": false, "x.py": false} {
		if CacheEntry(e) != want {
			t.Errorf("CacheEntry(%q) = %v, want %v", e, !want, want)
		}
	}
}
