package executor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/planx-dev/planx/gitops"
)

// lockInfo says who holds a repository's run lock.
type lockInfo struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
	Command string    `json:"command"`
}

// lock is held for the whole life of a run or resume; it lives in the common
// git dir so that two linked worktrees cannot run plans on one repository's
// refs at once.
type lock struct{ path string }

func lockPath(repo *gitops.Repo) string {
	return filepath.Join(repo.CommonDir, "planx", "run.lock")
}

// acquireLock takes the run lock, taking over a lock whose process is gone.
func acquireLock(repo *gitops.Repo, command string) (*lock, error) {
	p := lockPath(repo)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	host, _ := os.Hostname()
	me := lockInfo{PID: os.Getpid(), Host: host, Started: time.Now().UTC(), Command: command}
	data, _ := json.Marshal(me)
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := f.Write(data)
			serr := f.Sync()
			cerr := f.Close()
			if err := errors.Join(werr, serr, cerr); err != nil {
				_ = os.Remove(p)
				return nil, fmt.Errorf("lock: %w", err)
			}
			return &lock{path: p}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock: %w", err)
		}
		holder, rerr := readLock(p)
		if rerr == nil && holder.alive(host) {
			return nil, fmt.Errorf("%w: planx %s (pid %d on %s, started %s) holds %s; wait for it, or run `planx unlock --force` if it is gone",
				ErrRunInProgress, holder.Command, holder.PID, holder.Host, holder.Started.Format(time.RFC3339), p)
		}
		// Stale (its process is gone) or unreadable (crash while writing it): take it over.
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("lock: remove stale %s: %w", p, err)
		}
	}
	return nil, fmt.Errorf("%w: could not take %s", ErrRunInProgress, p)
}

func readLock(p string) (lockInfo, error) {
	var li lockInfo
	data, err := os.ReadFile(p)
	if err != nil {
		return li, err
	}
	err = json.Unmarshal(data, &li)
	return li, err
}

// alive reports whether the holder still runs. A lock from another host
// cannot be checked and counts as alive.
func (li lockInfo) alive(host string) bool {
	if li.Host != host {
		return true
	}
	if li.PID <= 0 {
		return false
	}
	err := syscall.Kill(li.PID, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func (l *lock) release() {
	if l != nil {
		_ = os.Remove(l.path)
	}
}

// Unlock removes the run lock whoever holds it (`planx unlock --force`).
func Unlock(repo *gitops.Repo) (string, error) {
	p := lockPath(repo)
	li, _ := readLock(p)
	err := os.Remove(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "no lock held", nil
	}
	if err != nil {
		return "", fmt.Errorf("unlock: %w", err)
	}
	return "removed lock of pid " + strconv.Itoa(li.PID), nil
}
