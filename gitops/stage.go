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

// StageFiles stages the current content of each of paths, files planx
// itself wrote (the plan, the log), or their removal. Unlike Stage it
// walks no directory: git add with a pathspec looks for untracked files
// under the pathspecs' common prefix, which for a file at the top level
// and one in a subdirectory is the whole work tree. git update-index
// applies the same .gitattributes filters and core.autocrlf as git add;
// it does not consult ignore rules, which planx checked for these files.
func (ix Index) StageFiles(ctx context.Context, paths ...string) error {
	if len(paths) == 0 {
		return nil
	}
	args := append([]string{"update-index", "--add", "--remove", "--"}, paths...)
	if _, err := ix.r.write(ctx, nil, args...); err != nil {
		return fmt.Errorf("stage %d file(s): %w", len(paths), err)
	}
	ix.restaged(paths...)
	return nil
}
