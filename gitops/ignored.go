package gitops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Ignored reports whether git's ignore rules (.gitignore files, info/exclude,
// core.excludesFile) ignore the repo-relative path.
func (ix Index) Ignored(ctx context.Context, path string) (bool, error) {
	_, err := ix.r.run(ctx, nil, true, "check-ignore", "-q", "--no-index", "--", path)
	var ge *GitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ge) && ge.ExitCode == 1:
		return false, nil
	}
	return false, err
}

// IgnoredEntries lists the ignored files and directories of the work tree
// that exist now, a wholly ignored directory as one "dir/" entry (so a
// node_modules costs one line, not a walk of its files).
func (ix Index) IgnoredEntries(ctx context.Context) ([]string, error) {
	out, err := ix.r.run(ctx, nil, true, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// IgnoredFiles lists the untracked files git ignores, a wholly ignored
// directory as one entry ending in '/', so that the list stays short where
// builds keep their output.
func (ix Index) IgnoredFiles(ctx context.Context) ([]string, error) {
	out, err := ix.r.run(ctx, nil, true, "ls-files", "-z", "--others", "--ignored",
		"--exclude-standard", "--directory", "--no-empty-directory")
	if err != nil {
		return nil, fmt.Errorf("list ignored files: %w", err)
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths, nil
}

// Submodules lists the paths .gitmodules gives the repository's submodules
// (none when it has no .gitmodules).
func (ix Index) Submodules(ctx context.Context) ([]string, error) {
	if _, err := os.Stat(filepath.Join(ix.r.Root, ".gitmodules")); err != nil {
		return nil, nil
	}
	out, err := ix.r.run(ctx, nil, true, "config", "-z", "--file", ".gitmodules", "--get-regexp", `^submodule\..*\.path$`)
	var ge *GitError
	if err != nil && !(errors.As(err, &ge) && ge.ExitCode == 1) { // 1: none
		return nil, fmt.Errorf("read .gitmodules: %w", err)
	}
	var paths []string
	for _, rec := range strings.Split(string(out), "\x00") {
		if _, p, ok := strings.Cut(rec, "\n"); ok && p != "" {
			paths = append(paths, path.Clean(p))
		}
	}
	return paths, nil
}
