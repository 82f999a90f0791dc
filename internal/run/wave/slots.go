package wave

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/planx-dev/planx/gitops"
)

// Pool is the reusable linked work trees (slots) of a work tree's runs, for
// parallel tasks, clean gates and the judge's runs. A slot is made once (a
// whole checkout, which costs most in a large repository) and then moved
// from task to task, wave to wave and run to run by checking out the next
// base, which rewrites only the files that differ. The slots outlive the
// run (PoolDir): a run that ends or stops cleans them (CleanSlots), planx
// prune and the idle time remove them (RemoveSlots, PruneIdle). Its
// methods are safe for concurrent use.
type Pool struct {
	repo *gitops.Repo
	root string // PoolDir(repo)
	mu   sync.Mutex
	free []string
	next int
	add  sync.Mutex // one git worktree add at a time (see Take)
	// open, once, before the pool's first slot, forgets the slots git
	// lists that an earlier crash deleted without telling it (git would
	// refuse to add one there again), then takes in those earlier runs
	// left: reused, each checked out afresh, by Take.
	open sync.Once
	// checkouts bounds the checkouts running at once by the CPUs: creating
	// files is CPU work in the kernel, and more checkouts than CPUs contend
	// for the file system's locks instead of overlapping. Four first
	// checkouts of 20,000 files on 2 CPUs: 6.6 s all at once, 5.1 s two
	// at a time; after many deletions, when ext4 scans for inodes it may
	// reuse, 23.0 s at once and 10.0 s two at a time (bench/README.md).
	checkouts chan struct{}
	// envs are what a slot's worktree_setup installed (the key it ran
	// for, the dependency environments), set aside at its next checkout
	// or when it is given back (Setup).
	envs map[string]installedSetup
	// ready are free slots Prepare checked out clean and no one used
	// since: the commit a Take may have each for without a checkout.
	ready map[string]gitops.SHA
}

// NewPool is the pool of the slots of repo's work tree, read from disk at
// the first Take. Only the run holding the work tree's run lock uses it
// (see PoolDir).
func NewPool(repo *gitops.Repo) *Pool {
	return &Pool{repo: repo, root: PoolDir(repo), checkouts: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))}
}

// load takes in the slots earlier runs left in the pool's directory.
func (s *Pool) load(ctx context.Context) {
	_, _ = forgetMissing(ctx, s.repo, s.root)
	dirs, n := listSlots(s.root)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free = append(s.free, dirs...)
	s.next = max(s.next, n)
}

// Checkout puts the slot at dir at rev, waiting for a turn.
func (s *Pool) Checkout(ctx context.Context, dir string, rev gitops.SHA) error {
	select {
	case s.checkouts <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.checkouts }()
	s.setAside(dir)
	wt, err := gitops.Open(ctx, dir)
	if err != nil {
		return err
	}
	if !sameDir(wt.CommonDir, s.repo.CommonDir) {
		// A directory copied or left from another repository: not ours
		// to check out, and Take makes the slot again.
		return fmt.Errorf("slot %s belongs to %s", dir, wt.CommonDir)
	}
	return wt.CheckoutClean(ctx, rev)
}

// sameDir says a and b name the same directory.
func sameDir(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// Take returns a slot checked out, clean, at rev. A slot that cannot be
// checked out (its directory or git's entry for it broken by a crash) is
// removed and made again, never trusted. Interrupted, it leaves the pool as
// it was: a slot is never removed for a checkout that a cancelled context
// refused.
func (s *Pool) Take(ctx context.Context, rev gitops.SHA) (string, error) {
	dir, err := s.take(ctx, rev)
	if err == nil {
		// The idle time of PruneIdle counts from here.
		now := time.Now()
		_ = os.Chtimes(dir, now, now)
	}
	return dir, err
}

func (s *Pool) take(ctx context.Context, rev gitops.SHA) (string, error) {
	repo := s.repo
	if err := ctx.Err(); err != nil {
		return "", err
	}
	s.open.Do(func() { s.load(context.WithoutCancel(ctx)) })
	s.mu.Lock()
	dir, ready := s.pick(rev)
	s.mu.Unlock()
	if ready {
		// Prepared clean at rev's tree and untouched since: only its HEAD
		// moves (else it is checked out as any other).
		if wt, err := gitops.Open(ctx, dir); err == nil && wt.Refs().Detach(ctx, rev) == nil {
			return dir, nil
		}
	}
	// Marked used before it is made or checked out: a run stopped halfway
	// (git worktree add done, the checkout not) leaves a slot whose index
	// is empty, which the run's end must clean too (CleanSlots).
	if os.MkdirAll(s.root, 0o755) == nil {
		_ = os.WriteFile(usedMark(dir), nil, 0o644)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		// A slot of this run or an earlier one.
		err := s.Checkout(ctx, dir, rev)
		if err == nil {
			return dir, nil
		}
		if ctx.Err() != nil {
			s.Put(dir)
			return "", err
		}
	}
	// git worktree add reads the other work trees' administrative files,
	// and one half made by a concurrent add fails it: one at a time, but
	// without the checkout, which then runs alongside the others.
	_ = os.RemoveAll(setupDir(dir)) // a broken slot's setup is not trusted either
	s.add.Lock()
	err := emptyWorktree(ctx, repo, dir, rev)
	s.add.Unlock()
	if err != nil {
		return "", err
	}
	return dir, s.Checkout(ctx, dir, rev)
}

// pick chooses the slot a Take of rev gets, with s.mu held: a free one
// Prepare made ready for rev (ready is then true), else the last free one,
// else a new one.
func (s *Pool) pick(rev gitops.SHA) (dir string, ready bool) {
	for i, d := range s.free {
		if s.ready[d] == rev {
			s.free = slices.Delete(s.free, i, i+1)
			delete(s.ready, d)
			return d, true
		}
	}
	if n := len(s.free); n > 0 {
		dir, s.free = s.free[n-1], s.free[:n-1]
		delete(s.ready, dir)
		return dir, false
	}
	s.next++
	return filepath.Join(s.root, fmt.Sprintf("slot%d", s.next)), false
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
		RemoveWorktree(repo, dir)
	}
	return os.MkdirAll(filepath.Dir(dir), 0o755)
}

// Put gives a slot back for another use, as its last use left it: its
// next Take, or the run's end (CleanSlots), cleans it, off the path of the
// task that used it. What its worktree_setup installed is set aside now,
// as a checkout would: the run's end cleans without the pool.
func (s *Pool) Put(dir string) {
	s.setAside(dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.ready, dir)
	s.free = append(s.free, dir)
}

// Keep moves a failed task's slot to dir, the task's own name, where it
// stays for the person to look at; the pool makes a new slot when it needs
// one.
func (s *Pool) Keep(ctx context.Context, slot, dir string) error {
	repo := s.repo
	// git worktree move reads every work tree's administrative files, as
	// add does: not while an add has one half made (see Take).
	s.add.Lock()
	defer s.add.Unlock()
	if err := clearWorktreeDir(ctx, repo, dir); err != nil {
		return err
	}
	if err := repo.Worktrees().Move(ctx, slot, dir); err != nil {
		return err
	}
	// What lay beside the slot is the slot's, not the task's work tree's.
	_ = os.Remove(usedMark(slot))
	_ = os.RemoveAll(setupDir(slot))
	return nil
}

// FreshWorktree makes a linked work tree at dir from base, replacing one a
// crashed or failed earlier attempt left there.
func FreshWorktree(ctx context.Context, repo *gitops.Repo, dir string, base gitops.SHA) error {
	if err := clearWorktreeDir(ctx, repo, dir); err != nil {
		return err
	}
	return repo.Worktrees().Add(ctx, dir, base)
}
