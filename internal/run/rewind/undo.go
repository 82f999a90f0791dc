package rewind

import (
	"context"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// Undo takes a finished run st off its branch, whose HEAD is the run's
// last commit (the caller checked that, and that the work tree is
// clean): the run's commits are kept under refs/planx/undone/<run-id>,
// then HEAD, the index, the work tree and its marks are put back as they
// were before the run, the user's uncommitted work uncommitted again and
// what was staged staged (the way abort puts them back). It returns the
// ref that keeps the run's commits.
func Undo(ctx context.Context, repo *gitops.Repo, st *runstate.State, head gitops.Head) (string, error) {
	ref := record.UndoneRef(st.RunID)
	if err := repo.Refs().Update(ctx, ref, head.SHA, "", "planx: undo keeps the run's commits"); err != nil {
		return "", err
	}
	u := &rewind{repo: repo, st: st}
	if err := u.restorePreRun(ctx, head, st.Base); err != nil {
		return ref, err
	}
	return ref, nil
}
