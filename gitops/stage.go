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

// Tree writes the index as a tree and returns its id.
func (ix Index) Tree(ctx context.Context) (SHA, error) { return ix.writeTree(ctx) }

// StageAllTree stages everything in the work tree (git add -A) and writes
// the index as a tree: the whole state of a linked work tree as one id.
func (ix Index) StageAllTree(ctx context.Context) (SHA, error) {
	if err := ix.StageAll(ctx); err != nil {
		return "", err
	}
	ix.r.stale = nil
	return ix.writeTree(ctx)
}
