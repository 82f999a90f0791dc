package gitops

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
)

func sortChanges(c []Change) {
	sort.Slice(c, func(i, j int) bool { return c[i].Path < c[j].Path })
}

// v1Status is the oracle: git's porcelain v1 for the same options, read with
// the simplest possible parser.
func v1Status(t *testing.T, dir string) []Change {
	t.Helper()
	out := gittest.GitInput(t, dir, "", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
	var cs []Change
	for _, rec := range strings.Split(out, "\x00") {
		if rec == "" {
			continue
		}
		dot := func(b byte) byte {
			if b == ' ' {
				return '.'
			}
			return b
		}
		cs = append(cs, Change{Path: rec[3:], Index: dot(rec[0]), Work: dot(rec[1])})
	}
	sortChanges(cs)
	return cs
}

func TestStatus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	for _, f := range []string{"mod.txt", "staged.txt", "del.txt", "ren-old.txt", "sp ace.txt", "ünï.txt", "both.txt"} {
		gittest.WriteFile(t, dir, f, f+"\n")
	}
	gittest.WriteFile(t, dir, ".gitignore", "build/\n")
	gittest.Commit(t, dir, "base")

	gittest.WriteFile(t, dir, "mod.txt", "changed\n")
	gittest.WriteFile(t, dir, "staged.txt", "changed\n")
	gittest.WriteFile(t, dir, "both.txt", "changed\n")
	gittest.Git(t, dir, "add", "staged.txt", "both.txt")
	gittest.WriteFile(t, dir, "both.txt", "changed again\n")
	gittest.WriteFile(t, dir, "sp ace.txt", "changed\n")
	gittest.WriteFile(t, dir, "ünï.txt", "changed\n")
	if err := os.Remove(filepath.Join(dir, "del.txt")); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "mv", "ren-old.txt", "ren-new.txt")
	gittest.WriteFile(t, dir, "untracked dir/a b.txt", "u\n")
	gittest.WriteFile(t, dir, "new\nline.txt", "u\n")
	gittest.WriteFile(t, dir, "build/out.o", "ignored\n")

	got, err := r.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sortChanges(got)
	want := []Change{
		{Path: "both.txt", Index: 'M', Work: 'M'},
		{Path: "del.txt", Index: '.', Work: 'D'},
		{Path: "mod.txt", Index: '.', Work: 'M'},
		{Path: "new\nline.txt", Index: '?', Work: '?'},
		{Path: "ren-new.txt", Index: 'A', Work: '.'},
		{Path: "ren-old.txt", Index: 'D', Work: '.'},
		{Path: "sp ace.txt", Index: '.', Work: 'M'},
		{Path: "staged.txt", Index: 'M', Work: '.'},
		{Path: "untracked dir/a b.txt", Index: '?', Work: '?'},
		{Path: "ünï.txt", Index: '.', Work: 'M'},
	}
	sortChanges(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Status:\n got %q\nwant %q", got, want)
	}
	if oracle := v1Status(t, dir); !reflect.DeepEqual(got, oracle) {
		t.Errorf("Status disagrees with porcelain v1:\n got %q\n git %q", got, oracle)
	}
	if dirty, err := r.Dirty(ctx); err != nil || !dirty {
		t.Errorf("Dirty = %v, %v", dirty, err)
	}
	tracked, err := r.Index().TrackedChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sortChanges(tracked)
	var wantTracked []Change
	for _, c := range want {
		if c.Index != '?' {
			wantTracked = append(wantTracked, c)
		}
	}
	if !reflect.DeepEqual(tracked, wantTracked) {
		t.Errorf("TrackedChanges:\n got %q\nwant %q", tracked, wantTracked)
	}

	// Rename (type 2) records, which Status itself never asks for.
	out := gittest.GitInput(t, dir, "", "status", "--porcelain=v2", "-z", "--renames", "--untracked-files=no")
	renamed, _, err := parseStatus([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range renamed {
		if c.Path == "ren-new.txt" {
			found = c == Change{Path: "ren-new.txt", OrigPath: "ren-old.txt", Index: 'R', Work: '.'}
		}
	}
	if !found {
		t.Errorf("rename record not parsed: %q", renamed)
	}
	if _, _, err := parseStatus([]byte("1 M\x00")); err == nil {
		t.Error("truncated record accepted")
	}
}

func TestStatusConflictAndClean(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "f", "base\n")
	gittest.Commit(t, dir, "base")
	if dirty, err := r.Dirty(ctx); err != nil || dirty {
		t.Fatalf("clean repo Dirty = %v, %v", dirty, err)
	}
	gittest.Git(t, dir, "checkout", "-q", "-b", "other")
	gittest.WriteFile(t, dir, "f", "other\n")
	gittest.Commit(t, dir, "other")
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.WriteFile(t, dir, "f", "main\n")
	gittest.Commit(t, dir, "main")
	if _, err := gittest.TryGit(dir, "", "merge", "-q", "other"); err == nil {
		t.Fatal("expected a conflict")
	}
	got, err := r.Status(ctx)
	if err != nil || !reflect.DeepEqual(got, []Change{{Path: "f", Index: 'U', Work: 'U'}}) {
		t.Errorf("conflict: %q, %v", got, err)
	}
}

func TestStageAllRespectsIgnores(t *testing.T) {
	// A home of its own: the test writes a global config in it.
	gittest.Setenv(t)
	ctx := context.Background()
	r, dir := newRepo(t)
	home := os.Getenv("HOME")
	gittest.WriteFile(t, home, "global-ignore", "*.global\n")
	gittest.Git(t, dir, "config", "--global", "core.excludesFile", filepath.Join(home, "global-ignore"))
	gittest.WriteFile(t, dir, ".gitignore", "*.log\n")
	gittest.WriteFile(t, dir, ".git/info/exclude", "secret.txt\n")
	for _, f := range []string{"keep.txt", "a.log", "secret.txt", "x.global", "sub/dir/deep.txt", "sub/b.log", "gone.txt"} {
		gittest.WriteFile(t, dir, f, f)
	}
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	want := ".gitignore\ngone.txt\nkeep.txt\nsub/dir/deep.txt"
	if got := gittest.Git(t, dir, "ls-files"); got != want {
		t.Errorf("ls-files:\n%s\nwant\n%s", got, want)
	}
	if _, err := r.Commits().Commit(ctx, "first", CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "gone.txt"))
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "diff", "--cached", "--name-status"); got != "D\tgone.txt" {
		t.Errorf("deletion not staged: %q", got)
	}
}

func TestStageAllModesAndSymlinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFileMode(t, dir, "run.sh", "#!/bin/sh\n", 0o755)
	gittest.WriteFile(t, dir, "plain.txt", "x")
	if err := os.Symlink("plain.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commits().Commit(ctx, "modes", CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	modes := map[string]string{}
	for _, line := range strings.Split(gittest.Git(t, dir, "ls-files", "-s"), "\n") {
		meta, path, _ := strings.Cut(line, "\t")
		modes[path] = strings.Fields(meta)[0]
	}
	want := map[string]string{"run.sh": "100755", "plain.txt": "100644", "link": "120000"}
	if !reflect.DeepEqual(modes, want) {
		t.Errorf("modes %v, want %v", modes, want)
	}
	blob, err := r.History().ShowFile(ctx, mustHead(t, r), "link")
	if err != nil || string(blob) != "plain.txt" {
		t.Errorf("symlink blob %q, %v", blob, err)
	}
	fsck(t, dir)
}

func mustHead(t *testing.T, r *Repo) SHA {
	t.Helper()
	h, err := r.Head(context.Background())
	if err != nil || h.SHA == "" {
		t.Fatalf("Head: %+v, %v", h, err)
	}
	return h.SHA
}

func TestStageAllLocked(t *testing.T) {
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "f", "x")
	lock := filepath.Join(r.GitDir, "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := r.Index().StageAll(ctx)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	if min := time.Duration(defaultLockRetry().attempts-1) * defaultLockRetry().minWait; time.Since(start) < min {
		t.Errorf("gave up after %v, before the %v of retries", time.Since(start), min)
	}
	var ge *GitError
	if !errors.As(err, &ge) || !strings.Contains(ge.Stderr, "index.lock") || strings.Contains(err.Error(), "remove the file") {
		t.Errorf("error does not name the lock, or repeats git's advice: %v", err)
	}
	if _, statErr := os.Stat(lock); statErr != nil {
		t.Fatalf("lock file removed: %v", statErr)
	}

	// The lock holder finishes during the retries.
	done := make(chan error)
	go func() {
		time.Sleep(300 * time.Millisecond)
		done <- os.Remove(lock)
	}()
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatalf("StageAll after the lock went away: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "ls-files"); got != "f" {
		t.Errorf("ls-files = %q", got)
	}
}

func TestGitError(t *testing.T) {
	t.Parallel()
	r, _ := newRepo(t)
	_, err := r.Git(context.Background(), nil, "rev-parse", "--verify", "no-such-rev")
	var ge *GitError
	if !errors.As(err, &ge) || ge.ExitCode != 128 || ge.Stderr == "" ||
		!reflect.DeepEqual(ge.Args, []string{"rev-parse", "--verify", "no-such-rev"}) ||
		!strings.Contains(err.Error(), "rev-parse --verify no-such-rev") {
		t.Errorf("err = %#v", err)
	}
	out, err := r.Git(context.Background(), bytes.NewReader([]byte("hello")), "hash-object", "--stdin")
	if err != nil || strings.TrimSpace(string(out)) != "b6fc4c620b67d95f953a5c1c1230aaab5db5a1b0" {
		t.Errorf("hash-object: %q, %v", out, err)
	}
}

// TestSurvey: one status gives what Status and the ignored listing give
// separately, and Staged says whether the index differs from HEAD.
func TestSurvey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, ".gitignore", "node_modules/\n*.o\n.env\n")
	gittest.WriteFile(t, dir, "src/keep.c", "c\n")
	gittest.Commit(t, dir, "initial")
	for _, f := range []string{"node_modules/a/b", "node_modules/c", "build/x.o", "src/z.o", ".env", "new.txt"} {
		gittest.WriteFile(t, dir, f, "x\n")
	}
	gittest.WriteFile(t, dir, "src/keep.c", "changed\n")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	sv, err := r.Survey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sortChanges(sv.Changes)
	if want := v1Status(t, dir); !reflect.DeepEqual(sv.Changes, want) {
		t.Errorf("Survey changes = %q, porcelain v1 says %q", sv.Changes, want)
	}
	// git ls-files names each ignored file, or the directory a rule matches.
	if want := []string{".env", "build/x.o", "node_modules/", "src/z.o"}; !reflect.DeepEqual(sv.Ignored, want) {
		t.Errorf("Survey ignored = %q, want %q", sv.Ignored, want)
	}
	for _, p := range sv.Ignored {
		out := gittest.Git(t, dir, "check-ignore", "--no-index", strings.TrimSuffix(p, "/"))
		if strings.TrimSpace(out) != strings.TrimSuffix(p, "/") {
			t.Errorf("git check-ignore does not ignore %s", p)
		}
	}
	if sv.Staged() {
		t.Error("Staged with nothing staged")
	}
	gittest.Git(t, dir, "add", "new.txt")
	if sv, err = r.Survey(ctx); err != nil || !sv.Staged() {
		t.Errorf("Staged = false after git add (%v)", err)
	}
}
