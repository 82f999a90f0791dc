package runstart

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// logPath checks the configured log directory and returns the run's log
// path, repo-relative. The log travels inside the task commits, so its
// directory must be a plain directory of the work tree that git tracks:
// inside the work tree, outside .git, reached through no symlink (a link
// could lead out of the repository) and not ignored (the log would never be
// committed, silently). Anything else is an invalid setting (exit 4).
func logPath(ctx context.Context, repo *gitops.Repo, dir, name, runID string) (string, error) {
	bad := func(why string) error {
		return fmt.Errorf("%w: log_dir %q %s; set log_dir in .planx.yaml (or --log-dir) to a directory of the work tree, e.g. memory-bank/execute",
			planparse.ErrInvalid, dir, why)
	}
	abs := dir
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(repo.Root, filepath.FromSlash(dir))
	}
	rel, err := filepath.Rel(repo.Root, filepath.Clean(abs))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", bad("is not inside the work tree " + repo.Root)
	}
	rel = filepath.ToSlash(rel)
	if first, _, _ := strings.Cut(rel, "/"); first == ".git" {
		return "", bad("is inside .git, which is never committed")
	}
	// Each existing component must be a real directory.
	cur := repo.Root
	for _, part := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", bad(err.Error())
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return "", bad("goes through the symlink " + cur)
		}
		if !fi.IsDir() {
			return "", bad(cur + " is not a directory")
		}
	}
	p := path.Join(rel, name)
	if _, err := os.Lstat(filepath.Join(repo.Root, filepath.FromSlash(p))); err == nil {
		// Two runs of one topic in the same second: each keeps its own log.
		p = strings.TrimSuffix(p, ".md") + "-" + runID[len(runID)-6:] + ".md"
	}
	ignored, err := repo.Index().Ignored(ctx, p)
	if err != nil {
		return "", err
	}
	if ignored {
		return "", bad("is ignored by git (check with: git check-ignore -v " + p + "), so the log would never be committed")
	}
	return p, nil
}
