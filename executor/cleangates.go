package executor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/planparse"
)

// cleanTree checks the staged tree out into a temporary linked worktree,
// for gates that must see exactly what is about to be committed: no
// ignored file, no untracked leftover, no file git is told not to look at.
// It returns the directory and how to remove it.
func (r *runner) cleanTree(ctx context.Context, t *planparse.Task) (string, func(), error) {
	sha, err := r.repo.StagedCommit(ctx, r.expect)
	if err != nil {
		return "", nil, fmt.Errorf("gates of %s in a clean worktree: %w", t.ID, err)
	}
	tmp, err := os.MkdirTemp("", "planx-gates-")
	if err != nil {
		return "", nil, fmt.Errorf("gates of %s in a clean worktree: %w", t.ID, err)
	}
	wt := filepath.Join(tmp, "tree")
	if err := r.repo.AddWorktree(ctx, wt, sha); err != nil {
		_ = os.RemoveAll(tmp)
		return "", nil, fmt.Errorf("gates of %s in a clean worktree: %w", t.ID, err)
	}
	return wt, func() {
		// A fresh context: the worktree must go even after an interruption.
		_ = r.repo.RemoveWorktree(context.WithoutCancel(ctx), wt)
		_ = os.RemoveAll(tmp)
	}, nil
}
