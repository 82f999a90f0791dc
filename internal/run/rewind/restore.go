package rewind

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
)

// restorePreRun puts the work tree back to the rollback commit's snapshot,
// HEAD back to the original commit and the index back to what was staged.
func (u *rewind) restorePreRun(ctx context.Context, head gitops.Head, base gitops.SHA) error {
	if base != "" {
		// Files the run created and never committed are saved in the
		// snapshot; reset --hard would leave them behind.
		changes, err := u.repo.Status(ctx)
		if err != nil {
			return err
		}
		var created []string
		for _, c := range changes {
			if c.Index == '?' {
				created = append(created, c.Path)
			}
		}
		if err := u.repo.Discard(ctx, nil, created); err != nil {
			return err
		}
		if err := u.repo.ResetHard(ctx, base); err != nil {
			return err
		}
	}
	var err error
	switch {
	// IndexAtHead: the rollback's staging may have run without its commit
	// landing, and the index must hold OrigHead's tree again.
	case u.st.OrigHead == "" && (head.SHA != "" || base != "" || u.st.IndexAtHead):
		err = u.repo.Unborn(ctx, u.st.Branch)
	case u.st.OrigHead != "" && (head.SHA != u.st.OrigHead || base != "" || u.st.IndexAtHead):
		err = u.repo.ResetMixed(ctx, u.st.OrigHead)
	}
	if err != nil {
		return err
	}
	if u.st.OrigIndex != "" {
		if err := u.repo.Index().Load(ctx, u.st.OrigIndex); err != nil {
			return err
		}
	}
	return u.restoreMarks(ctx)
}

// restoreMarks puts back what the index held beyond its tree: the
// assume-unchanged files' pre-run bytes and their flag, the skip-worktree
// flags and the intent-to-add entries.
func (u *rewind) restoreMarks(ctx context.Context) error {
	m := u.st.OrigMarks
	if m == nil || m.Empty() {
		return nil
	}
	if u.st.OrigHidden != "" {
		if err := restoreWorktree(ctx, u.repo, u.st.OrigHidden, m.AssumeUnchanged); err != nil {
			return err
		}
	}
	return u.repo.Index().PutMarks(ctx, m.AssumeUnchanged, m.SkipWorktree, m.IntentToAdd)
}

// restoreWorktree writes paths into the work tree as commit src has them,
// leaving the index and its flags alone. Paths src does not have are left
// as they are.
func restoreWorktree(ctx context.Context, repo *gitops.Repo, src gitops.SHA, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	in, err := repo.Objects().InTree(ctx, src, paths)
	if err != nil {
		return err
	}
	var present []string
	for _, p := range paths {
		if in[p] {
			present = append(present, p)
		}
	}
	if len(present) == 0 {
		return nil
	}
	if err := repo.RestoreFiles(ctx, src, present); err != nil {
		return fmt.Errorf("restore %d path(s) from %s: %w", len(present), src.Short(), err)
	}
	return nil
}
