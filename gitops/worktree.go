package gitops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Worktrees adds, moves and removes the repository's linked work trees,
// where planx verifies and runs tasks in parallel away from the user's.
type Worktrees struct {
	g      *runner
	common string // the common git directory
}

// Worktrees returns the repository's linked work trees.
func (r *Repo) Worktrees() Worktrees { return Worktrees{&r.runner, r.CommonDir} }

// lock serializes the adds, moves and removals of linked work trees of
// the repository across processes (two runs in two of its work trees):
// git names a work tree's administrative directory after the last
// element of its path, and two adds of slot1 under two pools at once can
// both take .git/worktrees/slot1 (git reads the other's half-written
// files and fails). The kernel releases the lock if planx dies.
func (w Worktrees) lock() (func(), error) {
	return lockFile(filepath.Join(w.common, "planx", "worktrees.lock"))
}

// Add checks rev out, detached, into the new directory dir as a
// linked work tree, leaving the caller's work tree and index untouched.
// Hooks are disabled for the checkout: a verification must not run the
// user's post-checkout hook as a side effect.
func (w Worktrees) Add(ctx context.Context, dir string, rev SHA) error {
	return w.add(ctx, dir, rev)
}

// AddEmpty is Add without the checkout: the work tree and
// its index stay empty (HEAD at rev) until the caller checks rev out there,
// which can then run concurrently with other work trees being added.
func (w Worktrees) AddEmpty(ctx context.Context, dir string, rev SHA) error {
	return w.add(ctx, dir, rev, "--no-checkout")
}

func (w Worktrees) add(ctx context.Context, dir string, rev SHA, extra ...string) error {
	if err := checkArg("directory", dir); err != nil {
		return err
	}
	if err := checkArg("revision", string(rev)); err != nil {
		return err
	}
	unlock, err := w.lock()
	if err != nil {
		return fmt.Errorf("add worktree at %s: %w", dir, err)
	}
	defer unlock()
	args := append([]string{"-c", "core.hooksPath=" + os.DevNull, "worktree", "add", "--detach", "--quiet"}, extra...)
	_, err = w.g.write(ctx, nil, append(args, dir, string(rev))...)
	if err != nil {
		return fmt.Errorf("add worktree at %s: %w", dir, err)
	}
	return nil
}

// Remove deletes a linked work tree made by Add, whatever
// was left in it, and its administrative files under the common git dir.
func (w Worktrees) Remove(ctx context.Context, dir string) error {
	if err := checkArg("directory", dir); err != nil {
		return err
	}
	unlock, err := w.lock()
	if err != nil {
		return fmt.Errorf("remove worktree %s: %w", dir, err)
	}
	defer unlock()
	if _, err := w.g.write(ctx, nil, "worktree", "remove", "--force", "--force", dir); err != nil {
		return fmt.Errorf("remove worktree %s: %w", dir, err)
	}
	return nil
}

// List lists the paths of the repository's work trees as git has them
// registered (git worktree list), the main one first; a registered work
// tree whose directory is gone is listed too.
func (w Worktrees) List(ctx context.Context) ([]string, error) {
	out, err := w.g.run(ctx, nil, true, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	var paths []string
	for _, field := range strings.Split(string(out), "\x00") {
		if p, ok := strings.CutPrefix(field, "worktree "); ok {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// absIn resolves a path git printed relative to the work tree root.
func absIn(root, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(root, p)
}

// hookInstalled reports whether git would run hook name from dir: an
// executable regular file.
func hookInstalled(dir, name string) bool {
	fi, err := os.Stat(filepath.Join(dir, name))
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// Move moves a linked work tree made by Add to dir, which
// must not exist, keeping git's record of it right.
func (w Worktrees) Move(ctx context.Context, from, to string) error {
	for _, d := range []string{from, to} {
		if err := checkArg("directory", d); err != nil {
			return err
		}
	}
	unlock, err := w.lock()
	if err != nil {
		return fmt.Errorf("move worktree %s: %w", from, err)
	}
	defer unlock()
	if _, err := w.g.write(ctx, nil, "worktree", "move", from, to); err != nil {
		return fmt.Errorf("move worktree %s: %w", from, err)
	}
	return nil
}
