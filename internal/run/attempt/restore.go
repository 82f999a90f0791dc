package attempt

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
)

// RestorePaths makes each path's work-tree content what commit src has
// (removing the paths src does not have) and its index entry what HEAD
// has, so a restored path shows as an unstaged change, as it was before:
// an attempt's change dropped, or a person's change a landing lands over
// kept aside. Other paths are never touched.
func RestorePaths(ctx context.Context, repo *gitops.Repo, src gitops.SHA, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	inSrc, err := repo.Objects().TreePaths(ctx, src)
	if err != nil {
		return fmt.Errorf("restore from %s: %w", src.Short(), err)
	}
	var present, absent []string
	for _, p := range paths {
		if inSrc[p] {
			present = append(present, p)
		} else {
			absent = append(absent, p)
		}
	}
	// The index first: a path HEAD does not have leaves the index, so
	// removing it below leaves nothing staged behind.
	if err := repo.ResetIndex(ctx, "HEAD", paths); err != nil {
		return fmt.Errorf("restore the index of %d path(s): %w", len(paths), err)
	}
	if len(present) > 0 {
		if err := repo.RestoreFiles(ctx, src, present); err != nil {
			return fmt.Errorf("restore %d path(s) from %s: %w", len(present), src.Short(), err)
		}
	}
	return repo.RemoveFiles(absent)
}
