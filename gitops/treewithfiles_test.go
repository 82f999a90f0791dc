package gitops

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// TreeWithFiles gives the tree git's own index gives (read-tree, the files
// added as regular files, write-tree), whether it splices the files into
// tree (each already a regular file there) or goes through a temporary
// index (a new path, an executable or a link at the path).
func TestTreeWithFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "plan.md", "- [ ] T001\n")
	gittest.WriteFile(t, dir, "memory-bank/execute/log.md", "log\n")
	gittest.WriteFile(t, dir, "memory-bank/other.md", "other\n")
	gittest.WriteFile(t, dir, "run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("plan.md", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	base := SHA(gittest.Commit(t, dir, "base"))
	tree, err := r.Objects().TreeOf(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	// git's answer: a temporary index of tree with files added as 100644.
	oracle := func(files map[string]string) string {
		t.Helper()
		idx := filepath.Join(t.TempDir(), "index")
		git := func(stdin string, args ...string) string {
			t.Helper()
			cmd := exec.Command("git", args...)
			cmd.Dir, cmd.Env, cmd.Stdin = dir, append(gittest.Environ(), "GIT_INDEX_FILE="+idx), strings.NewReader(stdin)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("git %v: %v", args, err)
			}
			return strings.TrimSpace(string(out))
		}
		git("", "read-tree", string(tree))
		for p, content := range files {
			blob := git(content, "hash-object", "-w", "--stdin")
			git("", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+p)
		}
		return git("", "write-tree")
	}
	for name, files := range map[string]map[string]string{
		"spliced, nested":   {"plan.md": "- [x] T001\n", "memory-bank/execute/log.md": "log, T001 done\n"},
		"a new path":        {"plan.md": "- [x] T001\n", "memory-bank/execute/new.md": "new\n"},
		"an executable":     {"run.sh": "#!/bin/sh\necho\n"},
		"a link":            {"link": "now a file\n"},
		"unchanged content": {"memory-bank/other.md": "other\n"},
	} {
		blobs := map[string][]byte{}
		for p, c := range files {
			blobs[p] = []byte(c)
		}
		got, err := r.Objects().TreeWithFiles(ctx, tree, blobs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := oracle(files); string(got) != want {
			t.Errorf("%s: tree %s, git's index gives %s", name, got, want)
		}
		if out := gittest.Git(t, dir, "fsck", "--no-dangling", "--connectivity-only"); out != "" {
			t.Errorf("%s: fsck: %s", name, out)
		}
	}
}
