package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// HeadNow (go-git, in-process) must agree with Head (the git CLI) in every
// state HEAD can be in.
func TestHeadNowAgreesWithCLI(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(state string, r *Repo) {
		t.Helper()
		want, err := r.Head(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.HeadNow()
		if err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		if got != want {
			t.Fatalf("%s: HeadNow %+v, CLI %+v", state, got, want)
		}
	}
	check("unborn", r)
	gittest.WriteFile(t, dir, "a", "a")
	gittest.Commit(t, dir, "one")
	check("loose ref", r)
	gittest.Git(t, dir, "pack-refs", "--all")
	check("packed ref", r)
	gittest.Git(t, dir, "checkout", "-q", "--detach")
	check("detached", r)
	gittest.Git(t, dir, "checkout", "-q", "main")
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	w, err := Open(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	check("linked worktree", w)
}

// CommitIndex records the same commit git commit would, moves the branch
// with compare-and-swap and writes the reflogs.
func TestCommitIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	root, err := r.Commits().CommitIndex(ctx, "first\n\nbody  \n\n\nRefs: x\n", "", "refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "rev-parse", "HEAD"); got != string(root) {
		t.Fatalf("HEAD %s, want %s", got, root)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%B"); got != "first\n\nbody\n\nRefs: x" {
		t.Fatalf("message %q", got)
	}
	if got := gittest.Git(t, dir, "reflog", "-1", "--format=%gs", "HEAD"); got != "commit (initial): first" {
		t.Fatalf("HEAD reflog %q", got)
	}
	// A second commit that also creates a ref, in one transaction.
	gittest.WriteFile(t, dir, "c.txt", "c\n")
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	second, err := r.Commits().CommitIndex(ctx, "second\n", root, "HEAD", "refs/planx/runs/x/base")
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "rev-parse", "refs/heads/main", "refs/planx/runs/x/base"); got != string(second)+"\n"+string(second) {
		t.Fatalf("refs after the transaction: %s", got)
	}
	if _, err := r.Commits().CommitIndex(ctx, "third\n", root, "HEAD", "refs/planx/runs/y/base"); err == nil || !strings.Contains(err.Error(), "HEAD moved") {
		t.Fatalf("stale parent: %v, want ErrHeadMoved", err)
	}
	if out := gittest.Git(t, dir, "for-each-ref", "refs/planx/runs/y/"); out != "" {
		t.Fatalf("a failed transaction created %s", out)
	}
	root = second
	changes, err := r.Index().StagedChanges(ctx, root)
	if err != nil || len(changes) != 0 {
		t.Fatalf("staged after commit: %v %v", changes, err)
	}
	gittest.WriteFile(t, dir, "b.txt", "b\n")
	gittest.WriteFile(t, dir, "a.txt", "a2\n")
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	changes, err = r.Index().StagedChanges(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, string(c.Index)+" "+c.Path)
	}
	if strings.Join(got, ",") != "M a.txt,A b.txt" {
		t.Fatalf("staged changes %v", got)
	}
	// Someone moves the branch meanwhile: the compare-and-swap refuses.
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "elsewhere")
	if _, err := r.Commits().CommitIndex(ctx, "second\n", root, "refs/heads/main"); err == nil || !strings.Contains(err.Error(), "HEAD moved") {
		t.Fatalf("CAS: %v, want ErrHeadMoved", err)
	}
	gittest.Git(t, dir, "fsck", "--strict")
}

func TestCommitRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	porcelain := func(noVerify bool) (bool, string) {
		t.Helper()
		c, err := r.Commits().CommitRules(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return c.Porcelain(noVerify)
	}
	if need, why := porcelain(false); need {
		t.Fatalf("fresh repo: %v %q", need, why)
	}
	gittest.WriteFileMode(t, dir, ".git/hooks/commit-msg", "#!/bin/sh\n", 0o755)
	if need, why := porcelain(false); !need || why != "hook commit-msg" {
		t.Fatalf("with a hook: %v %q", need, why)
	}
	if need, why := porcelain(true); need {
		t.Fatalf("--no-verify skips commit-msg: %v %q", need, why)
	}
	gittest.WriteFileMode(t, dir, ".git/hooks/post-commit", "#!/bin/sh\n", 0o755)
	if need, why := porcelain(true); !need || why != "hook post-commit" {
		t.Fatalf("--no-verify does not skip post-commit: %v %q", need, why)
	}
	gittest.WriteFileMode(t, dir, ".git/hooks/pre-commit", "#!/bin/sh\n", 0o644)
	if c, _ := r.Commits().CommitRules(ctx); len(c.Hooks) != 2 {
		t.Fatalf("a hook that is not executable counts: %v", c.Hooks)
	}
	for _, h := range []string{"commit-msg", "post-commit"} {
		if err := os.Remove(filepath.Join(dir, ".git/hooks", h)); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Git(t, dir, "config", "commit.gpgSign", "true")
	if need, why := porcelain(true); need {
		t.Fatalf("settings are read once per Repo, at a run's start: %v %q", need, why)
	}
	if r, err = Open(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if need, why := porcelain(true); !need || why != "commit.gpgSign" {
		t.Fatalf("signing: %v %q", need, why)
	}
}
