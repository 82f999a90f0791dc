//go:build linux

package executor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/progress"
)

// After a crash the recorded step group is killed only when its leader is
// still the process planx started: a pid reused by an unrelated process
// (another start time) is left alone.
func TestCleanOrphansChecksStartTime(t *testing.T) {
	repo := openRepo(t)
	r := &runner{repo: repo, out: progress.New(progress.Output{})}
	sleeper := exec.Command("sleep", "30")
	sleeper.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- sleeper.Wait() }()
	defer func() { _ = sleeper.Process.Kill() }()
	pid := sleeper.Process.Pid
	start := proc.StartTime(pid)
	if start == 0 {
		t.Fatalf("no start time for live pid %d", pid)
	}

	// A record whose start time differs names another process: not killed.
	if err := os.MkdirAll(repo.PlanxDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.pids().childFile(), []byte(fmt.Sprintf("%d %d", pid, start+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r.pids().cleanOrphans(r.out)
	select {
	case err := <-exited:
		t.Fatalf("a process with another start time was killed: %v", err)
	case <-time.After(200 * time.Millisecond):
	}

	// The record planx itself writes: the orphan is killed.
	r.pids().childStarted(pid)
	r.pids().cleanOrphans(r.out)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the orphaned step group was not killed")
	}
	if p, _ := readPid(r.pids().childFile()); p != 0 {
		t.Fatalf("child record not cleared: %d", p)
	}
}

func openRepo(t *testing.T) *gitops.Repo {
	t.Helper()
	gittest.Setenv(t)
	repo, err := gitops.Open(context.Background(), gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	return repo
}
