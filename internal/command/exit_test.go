package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/urfave/cli/v3"
)

// A git command that fails is no usage error, whatever it failed on: its
// error holds the child's *exec.ExitError, which has an ExitCode method as
// urfave/cli's exit errors do. git worktree add refusing a path it still
// lists ("missing but already registered") once came out as exit 2.
func TestExitCodeGitError(t *testing.T) {
	ctx := context.Background()
	gittest.Setenv(t)
	dir := gittest.Init(t)
	base := gitops.SHA(gittest.Commit(t, dir, "base"))
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	slot := dir + "/.git/planx/worktrees/run/slot1"
	if err := repo.Worktrees().Add(ctx, slot, base); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(slot); err != nil {
		t.Fatal(err)
	}
	err = repo.Worktrees().AddEmpty(ctx, slot, base)
	if !errors.As(err, new(*exec.ExitError)) {
		t.Fatalf("git worktree add over a deleted work tree: %v, want git's exit", err)
	}
	if got := exitCode(fmt.Errorf("take a slot: %w", err)); got != ExitInternal {
		t.Fatalf("exit code of %v: %d, want %d", err, got, ExitInternal)
	}
	if got := exitCode(cli.Exit("No help topic for 'x'", 3)); got != ExitUsage {
		t.Fatalf("exit code of urfave/cli's exit error: %d, want %d", got, ExitUsage)
	}
}
