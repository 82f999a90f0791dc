package wave

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gitops"
)

// forgetMissing removes the registrations of the linked work trees under
// root whose directory is gone (deleted behind git's back, or by a crash
// halfway through a removal): git would refuse to add a work tree at such
// a path again ("missing but already registered"), and lists it as
// prunable. Unlike git worktree prune it touches nothing outside root: a
// person's own work trees, on a disk not mounted now, stay registered. It
// returns the paths it forgot.
func forgetMissing(ctx context.Context, repo *gitops.Repo, root string) ([]string, error) {
	paths, err := repo.Worktrees().List(ctx)
	if err != nil {
		return nil, err
	}
	roots := []string{filepath.Clean(root)}
	if real, ok := realPath(root); ok && real != roots[0] {
		roots = append(roots, real)
	}
	var forgot []string
	for _, p := range paths {
		if !within(p, roots) {
			continue
		}
		if _, err := os.Lstat(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := repo.Worktrees().Remove(ctx, p); err != nil {
			return forgot, err
		}
		forgot = append(forgot, p)
	}
	return forgot, nil
}

// within reports whether p is strictly below one of roots.
func within(p string, roots []string) bool {
	for _, r := range roots {
		if strings.HasPrefix(filepath.Clean(p), r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// realPath is p with its symbolic links resolved, as git records a work
// tree's path, resolving the longest part of p that exists.
func realPath(p string) (string, bool) {
	p = filepath.Clean(p)
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest), true
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", false
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
