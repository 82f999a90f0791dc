//go:build linux

package proc

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// KillMarked finds processes by an entry of their environment, the ones
// they started with setsid too, and leaves alone those whose entry only
// begins the same (another run whose id extends this one's).
func TestKillMarkedFindsByEnvironment(t *testing.T) {
	start := func(entry string) *exec.Cmd {
		c := exec.Command("setsid", "sleep", "60")
		c.Env = []string{"PATH=/usr/bin:/bin", entry}
		if err := c.Start(); err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
		return c
	}
	marked, other := start("PLANX_TEST_MARK=run-1"), start("PLANX_TEST_MARK=run-12")
	killed := KillMarked("PLANX_TEST_MARK=run-1")
	want := strconv.Itoa(marked.Process.Pid) + " ("
	if len(killed) != 1 || !strings.HasPrefix(killed[0], want) {
		t.Fatalf("killed %q, want only pid %d", killed, marked.Process.Pid)
	}
	if err := marked.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the marked process ended with %v, want killed", err)
	}
	if err := other.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the other run's process was signalled: %v", err)
	}
}
