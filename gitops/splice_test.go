package gitops

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// CommitIndexWith must record exactly the tree git add + git commit would
// (the oracle: stage the same files, git write-tree), without writing the
// index, and Index.Sync must then leave the index as git commit would.
func TestCommitIndexWithMatchesGitAdd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name    string
		setup   func(t *testing.T, dir string) // before the base commit
		change  func(t *testing.T, dir string) // the task's work and planx's files
		files   []string
		spliced bool // false: the fallback (git add) is expected
	}{
		{"nested and top-level files", nil, func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "plan.md", "- [x] T001\n")
			gittest.WriteFile(t, dir, "memory-bank/execute/log.md", "log, later\n")
		}, []string{"plan.md", "memory-bank/execute/log.md"}, true},
		{"files sharing a directory, one executable", func(t *testing.T, dir string) {
			gittest.WriteFileMode(t, dir, "d/run.sh", "#!/bin/sh\n", 0o755)
			gittest.WriteFile(t, dir, "d/e/log.md", "deep\n")
		}, func(t *testing.T, dir string) {
			gittest.WriteFileMode(t, dir, "d/run.sh", "#!/bin/sh\necho 2\n", 0o755)
			gittest.WriteFile(t, dir, "d/e/log.md", "deeper\n")
		}, []string{"d/e/log.md", "d/run.sh"}, true},
		{"clean filter (eol attribute) applied as git add does", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, ".gitattributes", "*.md text eol=crlf\n")
		}, func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "plan.md", "- [x] T001\r\nline two\r\n")
		}, []string{"plan.md"}, true},
		{"unchanged file", nil, func(t *testing.T, dir string) {}, []string{"plan.md"}, true},
		{"a symlink is staged the ordinary way", func(t *testing.T, dir string) {
			if err := os.Symlink("plan.md", filepath.Join(dir, "link.md")); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "plan.md", "changed through the link\n")
		}, []string{"link.md", "plan.md"}, false},
		{"a file not in the index yet", nil, func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "memory-bank/execute/new.md", "new\n")
		}, []string{"memory-bank/execute/new.md"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := gittest.Init(t)
			gittest.WriteFile(t, dir, "plan.md", "- [ ] T001\n")
			gittest.WriteFile(t, dir, "memory-bank/execute/log.md", "log\n")
			gittest.WriteFile(t, dir, "other/x.txt", "x\n")
			if c.setup != nil {
				c.setup(t, dir)
			}
			base := SHA(gittest.Commit(t, dir, "base"))
			r, err := Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			// The task's own work, staged by its git add -A, before planx
			// writes its files.
			gittest.WriteFile(t, dir, "other/x.txt", "task work\n")
			if _, err := r.Index().StageChanges(ctx, base); err != nil {
				t.Fatal(err)
			}
			c.change(t, dir)
			sha, err := r.Commits().CommitIndexWith(ctx, "T001: work\n", base, "HEAD", c.files, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(r.stale) > 0; got != c.spliced {
				t.Fatalf("spliced = %v, want %v", got, c.spliced)
			}
			if head := gittest.Git(t, dir, "rev-parse", "HEAD"); head != string(sha) {
				t.Fatalf("HEAD %s, commit %s", head, sha)
			}
			if parent := gittest.Git(t, dir, "rev-parse", "HEAD^"); parent != string(base) {
				t.Fatalf("parent %s, want %s", parent, base)
			}
			got := gittest.Git(t, dir, "rev-parse", "HEAD^{tree}")
			if err := r.Index().Sync(ctx); err != nil {
				t.Fatal(err)
			}
			if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
				t.Fatalf("after Index.Sync the tree is not clean:\n%s", st)
			}
			// The oracle: what git add would have staged.
			gittest.Git(t, dir, "add", "-A")
			if want := gittest.Git(t, dir, "write-tree"); got != want {
				t.Fatalf("commit tree %s, git add + write-tree %s\n%s", got, want,
					gittest.Git(t, dir, "diff-tree", "-r", got, want))
			}
			gittest.Git(t, dir, "fsck", "--strict", "--no-progress")
		})
	}
}

// After a splice the index lags HEAD in the spliced files only: git add
// --verbose is still trusted, and reports them besides the task's work.
func TestStageChangesAfterSplice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", "- [ ] T001\n- [ ] T002\n")
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	base := SHA(gittest.Commit(t, dir, "base"))
	r, _ := Open(ctx, dir)
	gittest.WriteFile(t, dir, "a.txt", "T001\n")
	if _, err := r.Index().StageChanges(ctx, base); err != nil {
		t.Fatal(err)
	}
	tree := r.Commits().StartWriteTree(ctx)
	gittest.WriteFile(t, dir, "plan.md", "- [x] T001\n- [ ] T002\n") // written while git writes the tree
	sha, err := r.Commits().CommitIndexWith(ctx, "T001\n", base, "HEAD", []string{"plan.md"}, tree)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Index().cleanAt(sha) {
		t.Fatal("index not trusted after a splice")
	}
	gittest.WriteFile(t, dir, "b.txt", "T002\n")
	got, err := r.Index().StageChanges(ctx, sha)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b.txt", "plan.md"}; !slices.Equal(got, want) {
		t.Fatalf("StageChanges %q, want %q", got, want)
	}
	if want := oracle(t, dir, sha); !slices.Equal(want, []string{"b.txt"}) {
		t.Fatalf("diff-index %q", want)
	}
}
