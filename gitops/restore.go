package gitops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Discard undoes changes to the given repo-relative paths: paths in HEAD are
// restored from HEAD (index and work tree); created paths are unstaged and
// deleted, with directories they leave empty. It never touches other paths.
func (r *Repo) Discard(ctx context.Context, inHead, created []string) error {
	if len(inHead) > 0 {
		// Paths go through stdin so names with spaces, newlines or glob
		// characters reach git literally and no argument limit applies.
		if _, err := r.write(ctx, nulList(inHead), "-c", "core.literalPathspecs=true",
			"checkout", "-q", "HEAD", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return fmt.Errorf("restore %d path(s) from HEAD: %w", len(inHead), err)
		}
	}
	if len(created) == 0 {
		return nil
	}
	if _, err := r.write(ctx, nulList(created), "-c", "core.literalPathspecs=true",
		"rm", "-q", "--cached", "--ignore-unmatch", "-r", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
		return fmt.Errorf("unstage %d created path(s): %w", len(created), err)
	}
	return r.RemoveFiles(created)
}

// ResetIndex makes the index entries of paths (repo-relative) what commit
// rev has (git reset -q rev -- paths), leaving the work tree alone: a
// path rev does not have leaves the index.
func (r *Repo) ResetIndex(ctx context.Context, rev SHA, paths []string) error {
	_, err := r.write(ctx, nulList(paths), "-c", "core.literalPathspecs=true",
		"reset", "-q", string(rev), "--pathspec-from-file=-", "--pathspec-file-nul")
	return err
}

// RestoreFiles writes paths (repo-relative, each in commit rev) into the
// work tree as rev has them (git restore -q --source=rev --worktree),
// leaving the index and its flags alone.
func (r *Repo) RestoreFiles(ctx context.Context, rev SHA, paths []string) error {
	_, err := r.write(ctx, nulList(paths), "-c", "core.literalPathspecs=true",
		"restore", "-q", "--source="+string(rev), "--worktree", "--pathspec-from-file=-", "--pathspec-file-nul")
	return err
}

// RemoveFiles deletes work-tree files (repo-relative), and the directories
// that deleting them leaves empty; a file already gone is fine.
func (r *Repo) RemoveFiles(paths []string) error {
	for _, p := range paths {
		abs := filepath.Join(r.Root, filepath.FromSlash(p))
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		r.removeEmptyParents(filepath.Dir(abs))
	}
	return nil
}

func (r *Repo) removeEmptyParents(dir string) {
	for dir != r.Root && strings.HasPrefix(dir, r.Root+string(filepath.Separator)) {
		if os.Remove(dir) != nil { // not empty, or gone
			return
		}
		dir = filepath.Dir(dir)
	}
}

func nulList(paths []string) []byte {
	return []byte(strings.Join(paths, "\x00") + "\x00")
}
