//go:build linux

package execute

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	dir := t.TempDir()
	pids := PidsIn(dir)
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
	if err := os.WriteFile(filepath.Join(dir, "child.pid"), []byte(fmt.Sprintf("%d %d", pid, start+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	CleanOrphans(pids, out)
	select {
	case err := <-exited:
		t.Fatalf("a process with another start time was killed: %v", err)
	case <-time.After(200 * time.Millisecond):
	}

	// The record planx itself writes: the orphan is killed.
	pids.ChildStarted(pid)
	CleanOrphans(pids, out)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the orphaned step group was not killed")
	}
	if p, _ := pids.Child(); p != 0 {
		t.Fatalf("child record not cleared: %d", p)
	}
}
