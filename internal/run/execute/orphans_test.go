//go:build linux

package execute

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/internal/progress"
)

// After a crash the recorded step group is killed only when its leader is
// still the process planx started: a pid reused by an unrelated process
// (another start time) is left alone.
func TestCleanOrphansChecksStartTime(t *testing.T) {
	pids := PidsIn(t.TempDir())
	out := progress.New(progress.Output{})
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
	if err := os.WriteFile(pids.childFile(), []byte(fmt.Sprintf("%d %d", pid, start+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	pids.CleanOrphans(out)
	select {
	case err := <-exited:
		t.Fatalf("a process with another start time was killed: %v", err)
	case <-time.After(200 * time.Millisecond):
	}

	// The record planx itself writes: the orphan is killed.
	pids.ChildStarted(pid)
	pids.CleanOrphans(out)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the orphaned step group was not killed")
	}
	if p, _ := readPid(pids.childFile()); p != 0 {
		t.Fatalf("child record not cleared: %d", p)
	}
}
