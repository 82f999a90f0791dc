package gitops

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

func writeHook(t *testing.T, dir, name, script string) {
	t.Helper()
	gittest.WriteFileMode(t, dir, name, "#!/bin/sh\n"+script+"\n", 0o755)
}

func TestCommitUnbornAndEmpty(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	sha, err := r.Commits().Commit(ctx, "first", CommitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := gittest.Git(t, dir, "rev-parse", "HEAD"); string(sha) != want || len(sha) != 40 {
		t.Fatalf("Commit = %s, HEAD %s", sha, want)
	}
	if parents := gittest.Git(t, dir, "log", "-1", "--format=%P"); parents != "" {
		t.Errorf("first commit has parents %q", parents)
	}

	_, err = r.Commits().Commit(ctx, "nothing", CommitOptions{})
	if !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("err = %v, want ErrNothingToCommit", err)
	}
	var he *HookError
	if errors.As(err, &he) {
		t.Errorf("nothing to commit reported as a hook failure: %v", err)
	}
	empty, err := r.Commits().Commit(ctx, "rollback point", CommitOptions{AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "rev-parse", string(empty)+"^"); got != string(sha) {
		t.Errorf("empty commit parent %s, want %s", got, sha)
	}
	fsck(t, dir)
}

func TestCommitMessageAndTrailersSurvive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.Git(t, dir, "config", "commit.cleanup", "strip") // must not eat '#' lines
	msg := "\n\nplanx: task 3 — add parser  \n\n# Heading from the plan\nbody line\n\n\n" +
		"Planx-Task: 3\nPlanx-Plan: plans/x.md\nPlanx-Status: done\n\n"
	if _, err := r.Commits().Commit(ctx, msg, CommitOptions{AllowEmpty: true}); err != nil {
		t.Fatal(err)
	}
	got := gittest.GitInput(t, dir, "", "log", "-1", "--format=%B")
	want := "planx: task 3 — add parser\n\n# Heading from the plan\nbody line\n\n" +
		"Planx-Task: 3\nPlanx-Plan: plans/x.md\nPlanx-Status: done\n\n"
	if got != want {
		t.Errorf("stored message %q, want %q", got, want)
	}
	parsed := gittest.GitInput(t, dir, got, "interpret-trailers", "--parse")
	if parsed != "Planx-Task: 3\nPlanx-Plan: plans/x.md\nPlanx-Status: done\n" {
		t.Errorf("interpret-trailers --parse: %q", parsed)
	}
}

func TestCommitHooks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	base := gittest.Commit(t, dir, "base")
	hooks := filepath.Join(".git", "hooks")
	writeHook(t, dir, filepath.Join(hooks, "pre-commit"), "echo 'lint: bad style' >&2; exit 1")
	gittest.WriteFile(t, dir, "f", "x\n")
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}

	_, err := r.Commits().Commit(ctx, "blocked", CommitOptions{})
	var he *HookError
	if !errors.As(err, &he) || he.Hook != "pre-commit" || !strings.Contains(he.Output, "lint: bad style") {
		t.Fatalf("err = %#v, want pre-commit HookError", err)
	}
	if head := gittest.Git(t, dir, "rev-parse", "HEAD"); head != base {
		t.Fatalf("a commit was made despite the hook: %s", head)
	}
	var ge *GitError
	if !errors.As(err, &ge) || ge.ExitCode == 0 {
		t.Errorf("HookError does not carry the GitError: %v", err)
	}

	if _, err := r.Commits().Commit(ctx, "skip hooks", CommitOptions{NoVerify: true}); err != nil {
		t.Fatalf("NoVerify: %v", err)
	}

	// pre-commit passes, commit-msg refuses: told apart by COMMIT_EDITMSG.
	writeHook(t, dir, filepath.Join(hooks, "pre-commit"), "exit 0")
	writeHook(t, dir, filepath.Join(hooks, "commit-msg"), `grep -q '^Planx-Task:' "$1" || { echo 'missing trailer'; exit 1; }`)
	_, err = r.Commits().Commit(ctx, "no trailer", CommitOptions{AllowEmpty: true})
	if !errors.As(err, &he) || he.Hook != "commit-msg" || !strings.Contains(he.Output, "missing trailer") {
		t.Fatalf("err = %#v, want commit-msg HookError", err)
	}
	if _, err := r.Commits().Commit(ctx, "ok\n\nPlanx-Task: 1\n", CommitOptions{AllowEmpty: true}); err != nil {
		t.Fatalf("commit-msg should accept: %v", err)
	}

	// Both hooks installed, pre-commit refuses.
	writeHook(t, dir, filepath.Join(hooks, "pre-commit"), "exit 1")
	_, err = r.Commits().Commit(ctx, "x\n\nPlanx-Task: 2\n", CommitOptions{AllowEmpty: true})
	if !errors.As(err, &he) || he.Hook != "pre-commit" {
		t.Fatalf("err = %#v, want pre-commit HookError", err)
	}
	fsck(t, dir)
}

func TestCommitHooksPath(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.Commit(t, dir, "base")
	// A refusing hook in .git/hooks must be ignored once core.hooksPath is set.
	writeHook(t, dir, filepath.Join(".git", "hooks", "commit-msg"), "exit 1")
	gittest.Git(t, dir, "config", "core.hooksPath", "ci-hooks")
	writeHook(t, dir, "ci-hooks/pre-commit", "echo from-hooks-path >&2; exit 3")
	_, err := r.Commits().Commit(ctx, "m", CommitOptions{AllowEmpty: true})
	var he *HookError
	if !errors.As(err, &he) || he.Hook != "pre-commit" || !strings.Contains(he.Output, "from-hooks-path") {
		t.Fatalf("err = %#v, want pre-commit HookError from core.hooksPath", err)
	}
	writeHook(t, dir, "ci-hooks/pre-commit", "exit 0")
	if _, err := r.Commits().Commit(ctx, "m", CommitOptions{AllowEmpty: true}); err != nil {
		t.Fatalf(".git/hooks/commit-msg ran despite core.hooksPath: %v", err)
	}
}

func TestCommitHookModifiesFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.Commit(t, dir, "base")
	writeHook(t, dir, filepath.Join(".git", "hooks", "pre-commit"), "echo generated > generated.txt")
	gittest.WriteFile(t, dir, "f", "x\n")
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commits().Commit(ctx, "task", CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	dirty, err := r.Dirty(ctx)
	if err != nil || !dirty {
		t.Errorf("Dirty after a file-writing hook = %v, %v", dirty, err)
	}
}

func TestCommitNonExecutableHookIgnored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFileMode(t, dir, ".git/hooks/pre-commit", "#!/bin/sh\nexit 1\n", 0o644)
	if _, err := r.Commits().Commit(ctx, "m", CommitOptions{AllowEmpty: true}); err != nil {
		t.Fatalf("non-executable hook blocked the commit: %v", err)
	}
	// A failure that is no hook's fault stays a plain GitError.
	_, err := r.Commits().Commit(ctx, "  \n\n", CommitOptions{AllowEmpty: true})
	var he *HookError
	var ge *GitError
	if errors.As(err, &he) || !errors.As(err, &ge) {
		t.Errorf("empty message: err = %#v, want a GitError", err)
	}
}

func TestCommitPrepareMsgHookRunsWithNoVerify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	writeHook(t, dir, ".git/hooks/prepare-commit-msg", "echo refused >&2; exit 1")
	_, err := r.Commits().Commit(ctx, "m", CommitOptions{AllowEmpty: true, NoVerify: true})
	var he *HookError
	if !errors.As(err, &he) || he.Hook != "prepare-commit-msg" || !strings.Contains(he.Error(), "refused") {
		t.Fatalf("err = %v, want prepare-commit-msg HookError", err)
	}
	if sha, _ := r.Refs().Resolve(ctx, "HEAD"); sha != "" {
		t.Errorf("commit made: %s", sha)
	}
}

func TestCommitCancelled(t *testing.T) {
	t.Parallel()
	r, _ := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Commits().Commit(ctx, "m", CommitOptions{AllowEmpty: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// A run's git commit starts no automatic maintenance, however low the
// repository sets gc.auto: Maintain runs it once, by the repository's
// settings (here synchronous, to be seen).
func TestCommitLeavesMaintenanceToMaintain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.Git(t, dir, "config", "gc.auto", "1")
	gittest.Git(t, dir, "config", "gc.autoDetach", "false")
	// gc --auto counts loose objects in objects/17 only: enough of them
	// that two land there.
	for i := 0; i < 2000; i++ {
		gittest.WriteFile(t, dir, fmt.Sprintf("loose/%d", i), fmt.Sprint(i))
	}
	gittest.Git(t, dir, "add", "loose")
	packs := func() int {
		m, _ := filepath.Glob(filepath.Join(r.CommonDir, "objects", "pack", "*.pack"))
		return len(m)
	}
	for i, name := range []string{"a.txt", "b.txt", "c.txt"} {
		gittest.WriteFile(t, dir, name, name)
		gittest.Git(t, dir, "add", name)
		if _, err := r.Commits().Commit(ctx, "commit "+name, CommitOptions{}); err != nil {
			t.Fatal(err)
		}
		if n := packs(); n != 0 {
			t.Fatalf("commit %d started git's gc: %d packs", i+1, n)
		}
	}
	if err := r.Commits().Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	if n := packs(); n == 0 {
		t.Error("Maintain did not run the gc gc.auto=1 asks for")
	}
}
