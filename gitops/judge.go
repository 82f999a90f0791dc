package gitops

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The reads in this file let planx tell whether a task hid work from the
// judge: changes git would not see (skip-worktree, assume-unchanged, new
// ignored files) and changes made after the task's work was verified.

// StageAgain stages every change in the work tree again (git add -A) and
// returns the paths git restaged: after a verified task was staged, any path
// listed changed since. ok is false when git's report could not be read
// back unambiguously (a path holding a newline): something changed, but
// which paths is unknown.
func (r *Repo) StageAgain(ctx context.Context) (paths []string, ok bool, err error) {
	out, err := r.write(ctx, nil, "add", "-A", "--verbose")
	r.clean, r.stale = nil, nil
	if err != nil {
		return nil, false, err
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, true, nil
	}
	paths, ok = r.parseAddVerbose(out)
	return paths, ok, nil
}

// HiddenEntries lists the index entries git is told not to look at in the
// work tree, each as "path (skip-worktree)" or "path (assume-unchanged)":
// a change to such a file is invisible to git add, git status and git diff.
//
// The index is read in-process when its layout is one hiddenInIndex knows;
// otherwise git lists it.
func (r *Repo) HiddenEntries(ctx context.Context) ([]string, error) {
	if hidden, err := hiddenInIndex(r.indexPath()); err == nil {
		return hidden, nil
	}
	return r.hiddenByGit(ctx)
}

func (r *Repo) hiddenByGit(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, nil, true, "ls-files", "-v", "-z")
	if err != nil {
		return nil, fmt.Errorf("list index flags: %w", err)
	}
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
	return hidden, nil
}

// IgnoredFiles lists the untracked files git ignores, a wholly ignored
// directory as one entry ending in '/', so that the list stays short where
// builds keep their output.
func (r *Repo) IgnoredFiles(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, nil, true, "ls-files", "-z", "--others", "--ignored",
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

// PinConfig makes every later git command of r run with `-c key=value`,
// whatever the repository's or the user's config says by then: the run
// keeps the hooks path it started with even if a task rewrites
// ~/.gitconfig.
func (r *Repo) PinConfig(key, value string) {
	r.pinned = append(r.pinned, "-c", key+"="+value)
	if key == "core.hooksPath" {
		r.hooks = value
	}
}

// HooksPath is the absolute directory git runs this repository's hooks
// from, as git said when the repository was opened (or as pinned since).
func (r *Repo) HooksPath() string { return r.hooks }

// InTree reports which of paths exist in commit rev (files or directories).
func (r *Repo) InTree(ctx context.Context, rev SHA, paths []string) (map[string]bool, error) {
	in := map[string]bool{}
	if len(paths) == 0 || rev == "" {
		return in, nil
	}
	if err := checkArg("revision", string(rev)); err != nil {
		return nil, err
	}
	args := append([]string{"-c", "core.literalPathspecs=true", "ls-tree", "-z", "--name-only", "--full-tree", string(rev), "--"}, paths...)
	out, err := r.run(ctx, nil, true, args...)
	if err != nil {
		return nil, fmt.Errorf("list %d path(s) in %s: %w", len(paths), rev.Short(), err)
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			in[p] = true
		}
	}
	return in, nil
}

// ClearHidden takes the skip-worktree and assume-unchanged flags off the
// entries HiddenEntries listed, so that git sees their files again.
func (r *Repo) ClearHidden(ctx context.Context, entries []string) error {
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
		if _, err := r.write(ctx, nil, args...); err != nil {
			return fmt.Errorf("clear index flags: %w", err)
		}
	}
	r.clean = nil
	return nil
}

// StagedCommit records the index as a commit on parent without moving any
// ref: a dangling commit that a linked worktree can check out, so that
// gates run on exactly the tree about to be committed.
func (r *Repo) StagedCommit(ctx context.Context, parent SHA) (SHA, error) {
	tree, err := r.writeTree(ctx)
	if err != nil {
		return "", err
	}
	args := []string{"commit-tree", string(tree), "-m", "planx: the staged tree, for its gates"}
	if parent != "" {
		args = append(args, "-p", string(parent))
	}
	out, err := r.run(ctx, nil, false, args...)
	if err != nil {
		return "", fmt.Errorf("record the staged tree: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// IndexEntries is the number of entries in the index (0 when there is no
// index or it cannot be read): the index header holds it, so no git runs.
func (r *Repo) IndexEntries() int {
	f, err := os.Open(r.indexPath())
	if err != nil {
		return 0
	}
	defer f.Close()
	var h [12]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:4]) != "DIRC" {
		return 0
	}
	return int(binary.BigEndian.Uint32(h[8:12]))
}

// GlobalConfigFiles are the user's git files every git command of planx
// reads: the global config ($GIT_CONFIG_GLOBAL, else ~/.gitconfig) and the
// XDG config, ignore and attributes files. A task that changes one changes
// how git hooks, ignores and filters for the rest of the run.
func GlobalConfigFiles() []string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var out []string
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		out = append(out, g)
	} else if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		for _, f := range []string{"config", "ignore", "attributes"} {
			out = append(out, filepath.Join(xdg, "git", f))
		}
	}
	return out
}
