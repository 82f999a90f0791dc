package wave

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
)

// RestoreLog puts the execution log at path (relative to repo's root, with
// slashes) in the work tree back to what commit base has, removing it when
// base has none, before a wave's chain lands: a stop writes the log there,
// and the commits being landed carry it whole, so the copy in the way of
// the work tree's update is planx's own and nothing is lost.
func RestoreLog(ctx context.Context, repo *gitops.Repo, base gitops.SHA, path string) error {
	file := filepath.Join(repo.Root, filepath.FromSlash(path))
	b, err := repo.History().ShowFile(ctx, base, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	case err != nil:
		return err
	}
	if cur, err := os.ReadFile(file); err == nil && string(cur) == string(b) {
		return nil
	}
	return os.WriteFile(file, b, 0o644)
}
