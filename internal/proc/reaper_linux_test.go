//go:build linux

package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A process a step detaches with setsid outlives the step's process group;
// with planx as the subreaper it becomes planx's child and KillDetached
// kills it before it can write anything.
func TestKillDetachedFindsSetsidOrphans(t *testing.T) {
	if err := BecomeSubreaper(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "late")
	pidFile := filepath.Join(dir, "pid")
	res, err := Run(context.Background(), Spec{
		Name:   "detach",
		Script: "setsid sh -c 'echo $$ > " + pidFile + "; sleep 1; echo late > " + marker + "' </dev/null >/dev/null 2>&1 &\nfor i in 1 2 3 4 5 6 7 8 9 10; do [ -s " + pidFile + " ] && break; sleep 0.05; done",
		Dir:    dir,
	})
	if err != nil || !res.OK() {
		t.Fatalf("step: %v %+v", err, res)
	}
	killed := KillDetached()
	if len(killed) == 0 {
		t.Fatal("KillDetached found nothing: the setsid process survived the step")
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(b))
	if !strings.Contains(strings.Join(killed, " "), pid+" (") {
		t.Errorf("killed %v, want pid %s among them", killed, pid)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the detached process wrote its file after it was killed")
	}
	if err := syscall.Kill(atoi(t, pid), 0); err == nil {
		t.Errorf("process %s still exists (not reaped)", pid)
	}
}

func atoi(t *testing.T, s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("pid %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// The per-thread children files and a scan of every process agree.
func TestChildPidsAgreesWithScan(t *testing.T) {
	self := os.Getpid()
	var cmds []*exec.Cmd
	for range 3 {
		c := exec.Command("sleep", "5")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	defer func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	}()
	fast, ok := childPids(self)
	if !ok {
		t.Skip("no /proc/PID/task/TID/children on this kernel")
	}
	var scanned []int
	for _, pid := range allPids() {
		if _, ok := readChild(pid, self, -1); ok {
			scanned = append(scanned, pid)
		}
	}
	slices.Sort(fast)
	slices.Sort(scanned)
	if !slices.Equal(fast, scanned) || len(fast) < 3 {
		t.Errorf("children files say %v, a scan of /proc says %v (want the 3 sleeps)", fast, scanned)
	}
}
