package gitops

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
)

// The reads in this file let planx tell whether a task hid work from the
// judge: changes git would not see (skip-worktree, assume-unchanged; new
// ignored files are listed by IgnoredFiles, in ignored.go) and changes made
// after the task's work was verified.

// StageAgain stages every change in the work tree again (git add -A) and
// returns the paths git restaged: after a verified task was staged, any path
// listed changed since. ok is false when git's report could not be read
// back unambiguously (a path holding a newline): something changed, but
// which paths is unknown. Paths in except are left alone (see StageChanges).
func (ix Index) StageAgain(ctx context.Context, except ...string) (paths []string, ok bool, err error) {
	out, err := ix.r.write(ctx, nil, withExcept([]string{"add", "-A", "--verbose"}, except)...)
	ix.r.clean, ix.r.stale = nil, nil
	if err != nil {
		return nil, false, err
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, true, nil
	}
	paths, ok = ix.parseAddVerbose(out)
	return paths, ok, nil
}

// HiddenEntries lists the index entries git is told not to look at in the
// work tree, each as "path (skip-worktree)" or "path (assume-unchanged)":
// a change to such a file is invisible to git add, git status and git diff.
//
// The index is read in-process when its layout is one hiddenInIndex knows;
// otherwise git lists it.
func (ix Index) HiddenEntries(ctx context.Context) ([]string, error) {
	if hidden, err := hiddenInIndex(ix.path()); err == nil {
		return hidden, nil
	}
	return ix.hiddenByGit(ctx)
}

func (ix Index) hiddenByGit(ctx context.Context) ([]string, error) {
	out, err := ix.r.run(ctx, nil, true, "ls-files", "-v", "-z")
	if err != nil {
		return nil, fmt.Errorf("list index flags: %w", err)
	}
	return parseLsFilesV(out), nil
}

// parseLsFilesV reads git ls-files -v -z into HiddenEntries' form, sorted.
func parseLsFilesV(out []byte) []string {
	var hidden []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) < 3 || rec[1] != ' ' {
			continue
		}
		tag, path := rec[0], string(rec[2:])
		switch {
		case tag == 'S' || tag == 's':
			hidden = append(hidden, path+" (skip-worktree)")
		case tag >= 'a' && tag <= 'z':
			hidden = append(hidden, path+" (assume-unchanged)")
		}
	}
	slices.Sort(hidden)
	return hidden
}

// ClearHidden takes the skip-worktree and assume-unchanged flags off the
// entries HiddenEntries listed, so that git sees their files again.
func (ix Index) ClearHidden(ctx context.Context, entries []string) error {
	if len(entries) == 0 {
		return nil
	}
	paths := make([]string, len(entries))
	for i, e := range entries {
		paths[i] = e
		if at := strings.LastIndex(e, " ("); at > 0 {
			paths[i] = e[:at]
		}
	}
	// One flag per command (git applies only the last one given), paths
	// on the command line (with --stdin git applies neither).
	for _, flag := range []string{"--no-skip-worktree", "--no-assume-unchanged"} {
		args := append([]string{"update-index", flag, "--"}, paths...)
		if _, err := ix.r.write(ctx, nil, args...); err != nil {
			return fmt.Errorf("clear index flags: %w", err)
		}
	}
	ix.r.clean = nil
	return nil
}

// StagedCommit records the index as a commit on parent without moving any
// ref: a dangling commit that a linked worktree can check out, so that
// gates run on exactly the tree about to be committed.
func (ix Index) StagedCommit(ctx context.Context, parent SHA) (SHA, error) {
	tree, err := ix.writeTree(ctx)
	if err != nil {
		return "", err
	}
	args := []string{"commit-tree", string(tree), "-m", "planx: the staged tree, for its gates"}
	if parent != "" {
		args = append(args, "-p", string(parent))
	}
	out, err := ix.r.run(ctx, nil, false, args...)
	if err != nil {
		return "", fmt.Errorf("record the staged tree: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}
