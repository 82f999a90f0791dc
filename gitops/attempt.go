package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// RestorePaths makes each path's work-tree content what commit src has
// (removing the paths src does not have) and its index entry what HEAD has,
// so a restored path shows as an unstaged change, as it was before. Other
// paths are never touched. Paths go through stdin: names with spaces,
// newlines or glob characters reach git literally.
func (r *Repo) RestorePaths(ctx context.Context, src SHA, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	if err := checkArg("object id", string(src)); err != nil {
		return err
	}
	inSrc, err := r.treePaths(ctx, src)
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
	if _, err := r.write(ctx, nulList(paths), "-c", "core.literalPathspecs=true",
		"reset", "-q", "HEAD", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
		return fmt.Errorf("restore the index of %d path(s): %w", len(paths), err)
	}
	if len(present) > 0 {
		if _, err := r.write(ctx, nulList(present), "-c", "core.literalPathspecs=true",
			"restore", "--source="+string(src), "--worktree", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return fmt.Errorf("restore %d path(s) from %s: %w", len(present), src.Short(), err)
		}
	}
	for _, p := range absent {
		abs := filepath.Join(r.Root, filepath.FromSlash(p))
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		r.removeEmptyParents(filepath.Dir(abs))
	}
	return nil
}

// treePaths lists every file (blob, symlink, submodule) of a commit's tree.
func (r *Repo) treePaths(ctx context.Context, rev SHA) (map[string]bool, error) {
	out, err := r.run(ctx, nil, true, "ls-tree", "-r", "-z", "--name-only", "--full-tree", string(rev))
	if err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths[string(p)] = true
		}
	}
	return paths, nil
}
