package gitops

import (
	"context"
	"errors"
	"fmt"
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
