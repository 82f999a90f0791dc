package gitops

import (
	"context"
	"fmt"
)

// Stage stages exactly the given repo-relative paths (additions, changes and
// deletions), leaving every other change unstaged.
func (ix Index) Stage(ctx context.Context, paths ...string) error {
	if len(paths) == 0 {
		return nil
	}
	if _, err := ix.r.write(ctx, nulList(paths), "-c", "core.literalPathspecs=true",
		"add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
		return fmt.Errorf("stage %d path(s): %w", len(paths), err)
	}
	ix.restaged(paths...)
	return nil
}
