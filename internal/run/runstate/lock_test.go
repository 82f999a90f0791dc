package runstate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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

// holdLockEnv makes the test binary a lock holder (see TestMain's helper).
const holdLockEnv = "PLANX_TEST_HOLD_LOCK"

func TestMain(m *testing.M) {
	if dir := os.Getenv(holdLockEnv); dir != "" {
		repo, err := gitops.Open(context.Background(), dir)
		if err == nil {
			_, err = Acquire(repo, "holder")
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("locked")
		time.Sleep(time.Minute) // until killed
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLockIsExclusiveAndRefusesUnlockWhileHeld(t *testing.T) {
	repo := openRepo(t)
	lk, err := Acquire(repo, "run")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(repo, "resume")
	if !errors.Is(err, ErrRunInProgress) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second lock: %v, want ErrRunInProgress naming pid %d", err, os.Getpid())
	}
	if _, err := Unlock(repo); !errors.Is(err, ErrRunInProgress) {
		t.Fatalf("unlock --force of a live holder: %v, want a refusal", err)
	}
	if li, held := Holder(repo); !held || li.Command != "run" {
		t.Fatalf("lockHolder = %+v %v, want run held", li, held)
	}
	lk.Release()
	if _, held := Holder(repo); held {
		t.Fatal("lock still held after release")
	}
	if msg, err := Unlock(repo); err != nil || msg == "" {
		t.Fatalf("unlock of a free lock: %q %v", msg, err)
	}
	// A lock file an older planx left (pid-file format, dead pid) is no lock.
	if err := os.WriteFile(lockPath(repo), []byte(`{"pid":999999,"host":"x","command":"run"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	lk, err = Acquire(repo, "run")
	if err != nil {
		t.Fatalf("old lock file not taken: %v", err)
	}
	lk.Release()
}

// A holder killed with SIGKILL cannot clean up: the kernel releases its lock.
func TestLockOfAKilledHolderIsFree(t *testing.T) {
	repo := openRepo(t)
	holder := exec.Command(os.Args[0], "-test.run=^$")
	holder.Env = append(os.Environ(), holdLockEnv+"="+repo.Root)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil || string(buf) != "locked" {
		t.Fatalf("holder did not lock: %q %v", buf, err)
	}
	if _, err := Acquire(repo, "run"); !errors.Is(err, ErrRunInProgress) ||
		!strings.Contains(err.Error(), fmt.Sprintf("pid %d", holder.Process.Pid)) {
		t.Fatalf("lock of a live holder: %v", err)
	}
	if _, err := Unlock(repo); !errors.Is(err, ErrRunInProgress) {
		t.Fatalf("unlock --force while the holder lives: %v, want a refusal", err)
	}
	_ = holder.Process.Signal(syscall.SIGKILL)
	_ = holder.Wait()
	lk, err := Acquire(repo, "run")
	if err != nil {
		t.Fatalf("lock of a killed holder: %v", err)
	}
	lk.Release()
}

// Each linked worktree has its own lock: separate worktrees run separate plans.
func TestLockPerWorktree(t *testing.T) {
	repo := openRepo(t)
	gittest.Commit(t, repo.Root, "init")
	other := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, repo.Root, "worktree", "add", "-q", "-b", "feature", other)
	wt, err := gitops.Open(context.Background(), other)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Acquire(repo, "run")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := Acquire(wt, "run")
	if err != nil {
		t.Fatalf("lock in a linked worktree while the main one runs: %v", err)
	}
	b.Release()
}
