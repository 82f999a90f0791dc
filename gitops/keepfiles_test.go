package gitops

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// Kept files come back byte for byte with their modes, only where the work
// tree lost them; the user's index is untouched and git's own tools read
// the kept commit.
func TestKeepFilesRestoreMissing(t *testing.T) {
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.Git(t, dir, "config", "core.autocrlf", "true")
	write := func(p, s string, mode os.FileMode) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "local.env\ndata/\n", 0o644)
	gittest.Git(t, dir, "add", ".gitignore")
	gittest.Commit(t, dir, "base")
	write("local.env", "TOKEN=abc\r\n", 0o600)
	write("data/db/run.sh", "#!/bin/sh\n", 0o755)
	write("data/keep.txt", "kept", 0o644)
	if err := os.Symlink("local.env", filepath.Join(dir, "data", "link")); err != nil {
		t.Fatal(err)
	}
	indexBefore := gittest.Git(t, dir, "ls-files", "--stage")
	const ref = "refs/planx/runs/x/ignored"
	sha, err := r.KeepFiles(ctx, ref, "planx: ignored files", []string{"local.env", "data/db/run.sh", "data/keep.txt", "data/link", "gone.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "rev-parse", ref); strings.TrimSpace(got) != string(sha) {
		t.Errorf("%s = %s, want %s", ref, got, sha)
	}
	if got := strings.Fields(gittest.Git(t, dir, "ls-tree", "-r", "--name-only", ref)); !slices.Equal(got, []string{"data/db/run.sh", "data/keep.txt", "local.env"}) {
		t.Errorf("kept %v", got)
	}
	if got := gittest.Git(t, dir, "ls-files", "--stage"); got != indexBefore {
		t.Errorf("the index changed:\n%s\nwas\n%s", got, indexBefore)
	}
	fsck(t, dir)

	// git clean -fdx takes them; one comes back edited by hand first.
	gittest.Git(t, dir, "clean", "-fdqx")
	write("data/keep.txt", "edited", 0o644)
	restored, err := r.RestoreMissing(ctx, sha)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(restored, []string{"data/db/run.sh", "local.env"}) {
		t.Errorf("restored %v", restored)
	}
	for p, want := range map[string]string{"local.env": "TOKEN=abc\r\n", "data/db/run.sh": "#!/bin/sh\n", "data/keep.txt": "edited"} {
		if b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p))); string(b) != want {
			t.Errorf("%s = %q, want %q", p, b, want)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "data/db/run.sh")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("run.sh lost its exec bit: %v", err)
	}
	if out := gittest.Git(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("status after the restore: %q", out)
	}
	if sha, err := r.KeepFiles(ctx, ref, "none", []string{"nothing-here"}); sha != "" || err != nil {
		t.Errorf("KeepFiles of no file = %q, %v", sha, err)
	}
}
