package gitops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// newRepo makes a hermetic repository and opens it.
func newRepo(t *testing.T) (*Repo, string) {
	t.Helper()
	dir := gittest.Init(t)
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

// fsck fails the test unless git fsck finds the repository sound.
func fsck(t *testing.T, dir string) {
	t.Helper()
	gittest.Git(t, dir, "fsck", "--strict", "--no-progress")
}

func realpath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestOpenFromSubdirectory(t *testing.T) {
	t.Parallel()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a/b/c.txt", "x")
	r, err := Open(context.Background(), filepath.Join(dir, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	root := realpath(t, dir)
	if r.Root != root || r.GitDir != filepath.Join(root, ".git") || r.CommonDir != r.GitDir {
		t.Errorf("got Root=%s GitDir=%s CommonDir=%s, want root %s", r.Root, r.GitDir, r.CommonDir, root)
	}
	if want := gittest.Git(t, dir, "rev-parse", "--show-toplevel"); r.Root != realpath(t, want) {
		t.Errorf("Root %s, git says %s", r.Root, want)
	}
	if r.PlanxDir() != filepath.Join(root, ".git", "planx") {
		t.Errorf("PlanxDir %s", r.PlanxDir())
	}
}

func TestOpenNotARepo(t *testing.T) {
	gittest.Setenv(t)
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	_, err := Open(context.Background(), dir)
	if !errors.Is(err, ErrRepoState) || !strings.Contains(err.Error(), "git init") {
		t.Fatalf("err = %v, want ErrRepoState saying git init", err)
	}

	bare := t.TempDir()
	gittest.Git(t, bare, "init", "-q", "--bare")
	if _, err := Open(context.Background(), bare); !errors.Is(err, ErrRepoState) || !strings.Contains(err.Error(), "not a work tree") {
		t.Errorf("bare: err = %v, want ErrRepoState saying not a work tree", err)
	}
	repo := gittest.Init(t)
	if _, err := Open(context.Background(), filepath.Join(repo, ".git")); !errors.Is(err, ErrRepoState) || !strings.Contains(err.Error(), "not a work tree") {
		t.Errorf("inside .git: err = %v, want ErrRepoState saying not a work tree", err)
	}
	if _, err := Open(context.Background(), filepath.Join(repo, "missing")); err == nil {
		t.Error("missing dir: no error")
	}
}

func TestLinkedWorktree(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.Commit(t, dir, "base")
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	w, err := Open(context.Background(), wt)
	if err != nil {
		t.Fatal(err)
	}
	if w.Root != realpath(t, wt) || w.CommonDir != r.GitDir ||
		w.GitDir != filepath.Join(r.GitDir, "worktrees", "wt") {
		t.Errorf("got Root=%s GitDir=%s CommonDir=%s", w.Root, w.GitDir, w.CommonDir)
	}
	if w.PlanxDir() == r.PlanxDir() || filepath.Dir(w.PlanxDir()) != w.GitDir {
		t.Errorf("PlanxDir %s not per-worktree (main %s)", w.PlanxDir(), r.PlanxDir())
	}
	h, err := w.Head(context.Background())
	if err != nil || h.Branch != "side" {
		t.Errorf("Head = %+v, %v", h, err)
	}
}

func TestHead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	h, err := r.Head(ctx)
	if err != nil || h != (Head{Ref: "refs/heads/main", Branch: "main", Unborn: true}) {
		t.Fatalf("unborn: %+v, %v", h, err)
	}
	sha := gittest.Commit(t, dir, "one")
	h, err = r.Head(ctx)
	if err != nil || h != (Head{Ref: "refs/heads/main", Branch: "main", SHA: SHA(sha)}) {
		t.Fatalf("branch: %+v, %v", h, err)
	}
	gittest.Git(t, dir, "checkout", "-q", "--detach")
	h, err = r.Head(ctx)
	if err != nil || h != (Head{SHA: SHA(sha), Detached: true}) {
		t.Fatalf("detached: %+v, %v", h, err)
	}
	if SHA(sha).Short() != sha[:7] || SHA("").Short() != "" {
		t.Error("Short")
	}
}

func TestInProgress(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "f", "base\n")
	gittest.Commit(t, dir, "base")
	gittest.Git(t, dir, "checkout", "-q", "-b", "other")
	gittest.WriteFile(t, dir, "f", "other\n")
	gittest.Commit(t, dir, "other")
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.WriteFile(t, dir, "f", "main\n")
	gittest.Commit(t, dir, "main")
	if got := r.InProgress(); got != "" {
		t.Fatalf("clean repo: %q", got)
	}

	steps := []struct {
		want  string
		start []string
		abort []string
	}{
		{"merge", []string{"merge", "-q", "other"}, []string{"merge", "--abort"}},
		{"rebase", []string{"rebase", "-q", "other"}, []string{"rebase", "--abort"}},
		{"rebase", []string{"rebase", "-q", "--apply", "other"}, []string{"rebase", "--abort"}},
		{"cherry-pick", []string{"cherry-pick", "other"}, []string{"cherry-pick", "--abort"}},
		{"revert", []string{"revert", "--no-edit", "HEAD~1"}, []string{"revert", "--abort"}},
	}
	for _, s := range steps {
		if _, err := gittest.TryGit(dir, "", s.start...); err == nil {
			t.Fatalf("%v: expected a conflict", s.start)
		}
		if got := r.InProgress(); got != s.want {
			t.Errorf("%v: InProgress = %q, want %q", s.start, got, s.want)
		}
		gittest.Git(t, dir, s.abort...)
		if got := r.InProgress(); got != "" {
			t.Fatalf("after %v: %q", s.abort, got)
		}
	}

	patch := gittest.Git(t, dir, "format-patch", "-1", "--stdout", "other")
	if _, err := gittest.TryGit(dir, patch+"\n", "am", "-q"); err == nil {
		t.Fatal("am: expected a conflict")
	}
	if got := r.InProgress(); got != "am" {
		t.Errorf("am: %q", got)
	}
	gittest.Git(t, dir, "am", "--abort")

	gittest.Git(t, dir, "bisect", "start")
	if got := r.InProgress(); got != "bisect" {
		t.Errorf("bisect: %q", got)
	}
	gittest.Git(t, dir, "bisect", "reset")
	if got := r.InProgress(); got != "" {
		t.Errorf("after bisect reset: %q", got)
	}
}

func TestRel(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a/b.txt", "x")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		filepath.Join(dir, "a", "b.txt"):       "a/b.txt",
		filepath.Join(link, "a", "b.txt"):      "a/b.txt",
		filepath.Join(link, "a", "new", "c.x"): "a/new/c.x",
		dir:                                    ".",
	} {
		if got, err := r.Rel(in); err != nil || got != want {
			t.Errorf("Rel(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := r.Rel(t.TempDir()); err == nil {
		t.Error("Rel outside the repo: no error")
	}
}

func TestHookEnvironmentIsDropped(t *testing.T) {
	r, dir := newRepo(t)
	other := gittest.Init(t)
	// As inside a hook of another repository: git must still act on r.
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_INDEX_FILE", filepath.Join(other, ".git", "index"))
	t.Setenv("GIT_WORK_TREE", other)
	r2, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Root != r.Root {
		t.Fatalf("Root %s, want %s", r2.Root, r.Root)
	}
	gittest.WriteFile(t, dir, "f", "x")
	if err := r2.Index().StageAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Commits().Commit(context.Background(), "c", CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Unsetenv("GIT_DIR")
	os.Unsetenv("GIT_INDEX_FILE")
	os.Unsetenv("GIT_WORK_TREE")
	if got := gittest.Git(t, dir, "ls-files"); got != "f" {
		t.Errorf("ls-files in r = %q", got)
	}
}
