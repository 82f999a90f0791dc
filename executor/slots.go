package executor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/planx-dev/planx/gitops"
)

// slots are a run's reusable linked work trees for parallel tasks. A slot
// is made once (a whole checkout, which costs most in a large repository)
// and then moved from task to task and wave to wave by checking out the
// next base, which rewrites only the files that differ.
type slots struct {
	root string // .git/planx/worktrees/<run>
	mu   sync.Mutex
	free []string
	next int
	add  sync.Mutex // one git worktree add at a time (see take)
	// repair forgets, once, before the pool's first slot, the work trees
	// git lists under .git/planx/worktrees/ that an earlier crash deleted
	// without telling git: git would refuse to add a slot there again.
	repair sync.Once
	// checkouts bounds the checkouts running at once by the CPUs: creating
	// files is CPU work in the kernel, and more checkouts than CPUs contend
	// for the file system's locks instead of overlapping. Four first
	// checkouts of 20,000 files on 2 CPUs: 6.6 s all at once, 5.1 s two
	// at a time; after many deletions, when ext4 scans for inodes it may
	// reuse, 23.0 s at once and 10.0 s two at a time (bench/README.md,
	// "Session 6").
	checkouts chan struct{}
}

func newSlots(repo *gitops.Repo, runID string) *slots {
	return &slots{root: worktreeDir(repo, runID, ""), checkouts: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))}
}

// checkout puts the slot at dir at rev, waiting for a turn.
func (s *slots) checkout(ctx context.Context, dir string, rev gitops.SHA) error {
	select {
	case s.checkouts <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.checkouts }()
	wt, err := gitops.Open(ctx, dir)
	if err != nil {
		return err
	}
	return wt.CheckoutClean(ctx, rev)
}

// take returns a slot checked out, clean, at rev. Interrupted, it leaves
// the pool as it was: a slot is never removed for a checkout that a
// cancelled context refused.
func (s *slots) take(ctx context.Context, repo *gitops.Repo, rev gitops.SHA) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	s.repair.Do(func() {
		_, _ = repo.Worktrees().ForgetMissing(context.WithoutCancel(ctx), filepath.Dir(s.root))
	})
	s.mu.Lock()
	var dir string
	if n := len(s.free); n > 0 {
		dir, s.free = s.free[n-1], s.free[:n-1]
	} else {
		s.next++
		dir = filepath.Join(s.root, fmt.Sprintf("slot%d", s.next))
	}
	s.mu.Unlock()
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		// A slot of this run (reused, or left by a crash before a resume).
		err := s.checkout(ctx, dir, rev)
		if err == nil {
			return dir, nil
		}
		if ctx.Err() != nil {
			s.put(dir)
			return "", err
		}
	}
	// git worktree add reads the other work trees' administrative files,
	// and one half made by a concurrent add fails it: one at a time, but
	// without the checkout, which then runs alongside the others.
	s.add.Lock()
	err := emptyWorktree(ctx, repo, dir, rev)
	s.add.Unlock()
	if err != nil {
		return "", err
	}
	return dir, s.checkout(ctx, dir, rev)
}

// emptyWorktree makes a linked work tree at dir at rev without checking it
// out, replacing one a crashed or failed earlier attempt left there.
func emptyWorktree(ctx context.Context, repo *gitops.Repo, dir string, rev gitops.SHA) error {
	if err := clearWorktreeDir(ctx, repo, dir); err != nil {
		return err
	}
	return repo.Worktrees().AddEmpty(ctx, dir, rev)
}

// clearWorktreeDir removes a work tree an earlier attempt left at dir and
// makes dir's parent, so that git worktree add can create dir.
func clearWorktreeDir(ctx context.Context, repo *gitops.Repo, dir string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := os.Lstat(dir); err == nil {
		removeWorktree(repo, dir)
	}
	return os.MkdirAll(filepath.Dir(dir), 0o755)
}

// removeWorktree removes the linked work tree at dir from disk and from
// git's list, whatever was left in it and even after an interruption (git
// removes a work tree in a moment). When git cannot remove it (half made,
// or its administrative files gone), the directory is deleted and git's
// entry for it, if any, forgotten: a directory deleted that git still
// lists would make the next git worktree add there fail.
func removeWorktree(repo *gitops.Repo, dir string) {
	ctx := context.Background()
	if repo.Worktrees().Remove(ctx, dir) == nil {
		return
	}
	_ = os.RemoveAll(dir)
	_ = repo.Worktrees().Remove(ctx, dir)
}

// put gives a slot back for another task.
func (s *slots) put(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free = append(s.free, dir)
}

// keep moves a failed task's slot to the task's own name, where it stays
// for the person to look at; the pool makes a new slot when it needs one.
func (s *slots) keep(ctx context.Context, repo *gitops.Repo, slot, dir string) error {
	// git worktree move reads every work tree's administrative files, as
	// add does: not while an add has one half made (see take).
	s.add.Lock()
	defer s.add.Unlock()
	if _, err := os.Lstat(dir); err == nil {
		removeWorktree(repo, dir)
	}
	return repo.Worktrees().Move(ctx, slot, dir)
}

// freshWorktree makes a linked work tree at dir from base, replacing one a
// crashed or failed earlier attempt left there.
func freshWorktree(ctx context.Context, repo *gitops.Repo, dir string, base gitops.SHA) error {
	if err := clearWorktreeDir(ctx, repo, dir); err != nil {
		return err
	}
	return repo.Worktrees().Add(ctx, dir, base)
}
