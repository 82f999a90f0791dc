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

// stageChangesRepo makes a repository whose index planx committed itself,
// with a spread of files to change.
func stageChangesRepo(t *testing.T) (*Repo, string, SHA) {
	t.Helper()
	ctx := context.Background()
	dir := gittest.Init(t)
	for _, f := range []string{"a.txt", "d/b.txt", "d/e/c.txt", "it's here.txt", "ünï côde.txt", "gone.txt", "x.sh", "dir-to-be"} {
		gittest.WriteFile(t, dir, f, f+"\n")
	}
	gittest.WriteFile(t, dir, ".gitignore", "*.log\n")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	base, err := r.Commits().CommitIndex(ctx, "base\n", "", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return r, dir, base
}

// oracle is what git diff-index says the index holds beyond base.
func oracle(t *testing.T, dir string, base SHA) []string {
	t.Helper()
	out := gittest.Git(t, dir, "diff-index", "--cached", "--name-only", "--no-renames", "-z", string(base))
	var paths []string
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths
}

// StageChanges must list exactly what git diff-index lists, both when it
// reads git add's own report (the index untouched since planx committed it)
// and when it falls back to asking diff-index.
func TestStageChangesAgreesWithDiffIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name     string
		change   func(t *testing.T, dir string)
		verbose  bool // git add's report is trusted
		wantSome bool
	}{
		{"nothing", func(t *testing.T, dir string) {}, true, false},
		{"touched, same bytes", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "a.txt", "a.txt\n")
		}, true, false},
		{"modified, added, deleted, odd names", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "a.txt", "changed\n")
			gittest.WriteFile(t, dir, "new/deep/n.txt", "n\n")
			gittest.WriteFile(t, dir, "it's here.txt", "quote\n")
			gittest.WriteFile(t, dir, "ünï côde.txt", "unicode\n")
			gittest.WriteFile(t, dir, "with space.txt", "s\n")
			gittest.WriteFile(t, dir, "ignored.log", "never staged\n")
			rm(t, dir, "gone.txt")
		}, true, true},
		{"mode and type changes", func(t *testing.T, dir string) {
			if err := os.Chmod(filepath.Join(dir, "x.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			rm(t, dir, "d/b.txt")
			if err := os.Symlink("a.txt", filepath.Join(dir, "d/b.txt")); err != nil {
				t.Fatal(err)
			}
		}, true, true},
		{"rename", func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "d/e/c.txt"), filepath.Join(dir, "d/e/moved.txt")); err != nil {
				t.Fatal(err)
			}
		}, true, true},
		{"file becomes a directory", func(t *testing.T, dir string) {
			// git reports "remove 'dir-to-be'" while dir-to-be exists (as a
			// directory): the report is ambiguous and diff-index decides.
			rm(t, dir, "dir-to-be")
			gittest.WriteFile(t, dir, "dir-to-be/inside.txt", "i\n")
		}, true, true},
		{"somebody staged meanwhile", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "a.txt", "staged by an agent\n")
			gittest.Git(t, dir, "add", "a.txt")
			gittest.WriteFile(t, dir, "d/b.txt", "not staged\n")
		}, false, true},
		{"somebody unstaged meanwhile", func(t *testing.T, dir string) {
			// git add -A stages it again: nothing differs from base.
			gittest.Git(t, dir, "rm", "-q", "--cached", "a.txt")
		}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, dir, base := stageChangesRepo(t)
			c.change(t, dir)
			if got := r.Index().cleanAt(base); got != c.verbose {
				t.Fatalf("index trusted = %v, want %v", got, c.verbose)
			}
			got, err := r.Index().StageChanges(ctx, base)
			if err != nil {
				t.Fatal(err)
			}
			want := oracle(t, dir, base)
			if !slices.Equal(got, want) {
				t.Fatalf("StageChanges %q, diff-index %q", got, want)
			}
			if c.wantSome != (len(got) > 0) {
				t.Fatalf("changes %q, expected some: %v", got, c.wantSome)
			}
			if st := gittest.Git(t, dir, "status", "--porcelain"); strings.Contains(st, "\n ") || strings.HasPrefix(st, " ") || strings.Contains(st, "??") {
				t.Fatalf("something left unstaged:\n%s", st)
			}
			if r.Index().cleanAt(base) {
				t.Fatal("the index is still taken as clean after staging")
			}
		})
	}
}

// Every line of git's report is checked against the work tree; anything
// that does not read back unambiguously is refused, never guessed.
func TestParseAddVerboseRefusesDoubt(t *testing.T) {
	t.Parallel()
	r, dir, _ := stageChangesRepo(t)
	gittest.WriteFile(t, dir, "real.txt", "r\n")
	ok := func(out string) ([]string, bool) { return r.Index().parseAddVerbose([]byte(out)) }
	if got, good := ok("add 'real.txt'\nremove 'not-there.txt'\n"); !good || !slices.Equal(got, []string{"not-there.txt", "real.txt"}) {
		t.Fatalf("plain report: %q %v", got, good)
	}
	for _, out := range []string{
		"add 'missing.txt'\n",         // claims an addition that does not exist
		"remove 'real.txt'\n",         // claims a removal of a file that exists
		"add 'a\nb'\n",                // a name with a newline splits in two
		"warning: something else\n",   // not a report line
		"add ''\n",                    // empty name
		"add 'real.txt\n",             // unterminated quote
		"Entfernen 'not-there.txt'\n", // another language
	} {
		if got, good := ok(out); good {
			t.Errorf("%q read as %q", out, got)
		}
	}
}

func rm(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// After git commit the index is trusted only when no hook that runs after
// the tree is written is installed; a pre-commit hook that stages is fine,
// since git writes the tree from the index after it.
func TestStageChangesAfterGitCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		hook    string
		body    string
		trusted bool
	}{
		{"", "", true},
		{"pre-commit", "#!/bin/sh\necho formatted > by-hook.txt && git add by-hook.txt\n", true},
		{"post-commit", "#!/bin/sh\necho late > late.txt && git add late.txt\n", false},
		{"commit-msg", "#!/bin/sh\nexit 0\n", false},
	} {
		t.Run("hook "+c.hook, func(t *testing.T) {
			r, dir, base := stageChangesRepo(t)
			if c.hook != "" {
				gittest.WriteFileMode(t, dir, ".git/hooks/"+c.hook, c.body, 0o755)
			}
			gittest.WriteFile(t, dir, "a.txt", "task one\n")
			if _, err := r.Index().StageChanges(ctx, base); err != nil {
				t.Fatal(err)
			}
			sha, err := r.Commits().Commit(ctx, "one\n", CommitOptions{Parent: base})
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Index().cleanAt(sha); got != c.trusted {
				t.Fatalf("index trusted = %v, want %v", got, c.trusted)
			}
			gittest.WriteFile(t, dir, "d/b.txt", "task two\n")
			got, err := r.Index().StageChanges(ctx, sha)
			if err != nil {
				t.Fatal(err)
			}
			if want := oracle(t, dir, sha); !slices.Equal(got, want) {
				t.Fatalf("StageChanges %q, diff-index %q", got, want)
			}
		})
	}
}

// A path in except keeps base's content in the index, even when it was
// staged before, and StageAgain leaves it alone too; literal names with
// pathspec magic characters are excluded as written, and only them.
func TestStageChangesExcept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir, base := stageChangesRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "the task's\n")
	gittest.WriteFile(t, dir, "x.sh", "a person's\n")
	gittest.WriteFile(t, dir, "*.txt", "a literal star\n")
	gittest.Git(t, dir, "add", "x.sh")
	got, err := r.Index().StageChanges(ctx, base, "x.sh", "*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt"}; !slices.Equal(got, want) || !slices.Equal(oracle(t, dir, base), want) {
		t.Fatalf("StageChanges staged %q (diff-index %q), want %q", got, oracle(t, dir, base), want)
	}
	gittest.WriteFile(t, dir, "x.sh", "a person's, again\n")
	gittest.WriteFile(t, dir, "d/b.txt", "a gate's\n")
	again, ok, err := r.Index().StageAgain(ctx, "x.sh", "*.txt")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if want := []string{"d/b.txt"}; !slices.Equal(again, want) {
		t.Fatalf("StageAgain staged %q, want %q", again, want)
	}
	if st := gittest.Git(t, dir, "status", "--porcelain", "--", "x.sh", "*.txt"); !strings.Contains(st, " M x.sh") || !strings.Contains(st, "?? \"*.txt\"") && !strings.Contains(st, "?? *.txt") {
		t.Fatalf("the excepted paths are not left unstaged:\n%s", st)
	}
}
