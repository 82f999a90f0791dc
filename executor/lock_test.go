package executor

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

func openRepo(t *testing.T) *gitops.Repo {
	t.Helper()
	gittest.Setenv(t)
	repo, err := gitops.Open(context.Background(), gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func writeLock(t *testing.T, repo *gitops.Repo, li lockInfo) {
	t.Helper()
	data, _ := json.Marshal(li)
	p := lockPath(repo)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLockRefusesALiveHolderAndTakesOverADeadOne(t *testing.T) {
	repo := openRepo(t)
	host, _ := os.Hostname()

	lk, err := acquireLock(repo, "run")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acquireLock(repo, "resume"); !errors.Is(err, ErrRunInProgress) {
		t.Fatalf("second lock: %v, want ErrRunInProgress", err)
	}
	lk.release()

	// A process that has exited: its pid is free, so the lock is stale.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	writeLock(t, repo, lockInfo{PID: dead.Process.Pid, Host: host, Started: time.Now(), Command: "run"})
	lk, err = acquireLock(repo, "resume")
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	li, err := readLock(lockPath(repo))
	if err != nil || li.PID != os.Getpid() {
		t.Fatalf("lock now held by %+v (%v), want this process", li, err)
	}
	lk.release()

	// A lock from another host cannot be checked: it is respected.
	writeLock(t, repo, lockInfo{PID: 1, Host: host + "-elsewhere", Started: time.Now(), Command: "run"})
	if _, err := acquireLock(repo, "run"); !errors.Is(err, ErrRunInProgress) {
		t.Fatalf("foreign lock: %v, want ErrRunInProgress", err)
	}
	if msg, err := Unlock(repo); err != nil || msg == "" {
		t.Fatalf("unlock: %q %v", msg, err)
	}
	if _, err := os.Stat(lockPath(repo)); !os.IsNotExist(err) {
		t.Fatalf("lock still there after Unlock: %v", err)
	}
}
