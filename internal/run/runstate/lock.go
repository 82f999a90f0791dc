package runstate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/gitops"
	"golang.org/x/sys/unix"
)

// ErrRunInProgress reports another run holding the work tree (exit 5).
var ErrRunInProgress = errors.New("run in progress")

// LockInfo says who holds a work tree's run lock. It is written into the
// lock file for messages only: who holds the lock is the kernel's word.
type LockInfo struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
	Command string    `json:"command"`
}

// Lock is an OS lock (flock) on .git/planx/run.lock of the work tree, held
// for the whole life of a run, resume, skip or abort. The kernel releases it
// when the holder exits however it exits (even SIGKILL), so there is no
// stale lock to take over and no race between two takers: exactly one open
// file description holds it. The file is never removed (removing it would
// let a second taker lock a new file while the first still holds the old
// one). Go opens files close-on-exec, so steps, hooks and agents never
// inherit it: a process a hook leaves behind cannot keep the lock.
//
// The lock is per work tree: each linked worktree has its own run state and
// branch, so separate worktrees may run separate plans at once.
type Lock struct{ f *os.File }

func lockPath(repo *gitops.Repo) string {
	return filepath.Join(repo.PlanxDir(), "run.lock")
}

// Acquire takes the run lock for command (run, resume, skip, abort) or
// says who holds it (ErrRunInProgress).
func Acquire(repo *gitops.Repo, command string) (*Lock, error) {
	p := lockPath(repo)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := flock(f, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, heldError(p)
		}
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	host, _ := os.Hostname()
	data, _ := json.Marshal(LockInfo{PID: os.Getpid(), Host: host, Started: time.Now().UTC(), Command: command})
	// Who holds it is for messages; the lock itself is already ours.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt(data, 0)
	}
	return &Lock{f: f}, nil
}

// Busy says, as Acquire would, that a planx holds the run lock; nil when
// none does. It takes the lock for no longer than the asking and writes
// nothing, not even the lock file (a dry run asks it).
func Busy(repo *gitops.Repo) error {
	p := lockPath(repo)
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no planx ever ran here
	}
	if err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	defer f.Close()
	if err := flock(f, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if errors.Is(err, unix.EWOULDBLOCK) {
			return heldError(p)
		}
		return fmt.Errorf("lock %s: %w", p, err)
	}
	return flock(f, unix.LOCK_UN)
}

func heldError(p string) error {
	li, err := readLock(p)
	if err != nil || li.PID == 0 {
		return fmt.Errorf("%w: another planx holds %s; wait for it to end", ErrRunInProgress, p)
	}
	return fmt.Errorf("%w: planx %s (pid %d on %s, started %s) holds %s; wait for it to end (`planx status` shows what it does)",
		ErrRunInProgress, li.Command, li.PID, li.Host, li.Started.Format(time.RFC3339), p)
}

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func readLock(p string) (LockInfo, error) {
	var li LockInfo
	data, err := os.ReadFile(p)
	if err != nil {
		return li, err
	}
	err = json.Unmarshal(data, &li)
	return li, err
}

// Holder returns who holds the lock, and whether anybody does.
func Holder(repo *gitops.Repo) (LockInfo, bool) {
	p := lockPath(repo)
	f, err := os.Open(p)
	if err != nil {
		return LockInfo{}, false
	}
	defer f.Close()
	if err := flock(f, unix.LOCK_SH|unix.LOCK_NB); err == nil {
		return LockInfo{}, false // closing the file releases the probe
	}
	li, _ := readLock(p)
	return li, true
}

// Release gives the lock back; a nil or released lock is a no-op.
func (l *Lock) Release() {
	if l != nil && l.f != nil {
		_ = l.f.Close() // closing the only descriptor releases the flock
		l.f = nil
	}
}

// Unlock is `planx unlock --force`. With an OS lock there is nothing stale to
// remove: a held lock belongs to a live planx, which Unlock refuses to
// break; a free one needs nothing.
func Unlock(repo *gitops.Repo) (string, error) {
	if li, held := Holder(repo); held {
		return "", fmt.Errorf("%w: planx %s (pid %d) is alive and holds %s; stop it (Ctrl-C, or kill -INT %d) instead: a live run's lock is never removed",
			ErrRunInProgress, li.Command, li.PID, lockPath(repo), li.PID)
	}
	return "no live planx holds the lock (a planx that stopped, even killed, releases it itself)", nil
}
