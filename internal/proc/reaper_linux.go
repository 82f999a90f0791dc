//go:build linux

package proc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes this process the child subreaper of its
// descendants (PR_SET_CHILD_SUBREAPER): a process that leaves its parent's
// process group and session (setsid) and is orphaned by a double fork is
// reparented to planx instead of to init, so KillDetached can find it.
func BecomeSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("become child subreaper: %w", err)
	}
	return nil
}

// KillDetached kills and reaps every process that was orphaned below this
// one and reparented to it (see BecomeSubreaper), and then their own
// descendants, which are reparented in turn when their parent dies. It
// returns them as "pid (command)". Children in this process's own process
// group are left alone: they are its own git commands, not orphans.
//
// Call it only when no child planx started itself in another process
// group is running (between a step, a gate or an agent and the next).
func KillDetached() []string {
	self, own := os.Getpid(), syscall.Getpgrp()
	var killed []string
	for range 100 {
		kids := childrenOf(self, own)
		if len(kids) == 0 {
			break
		}
		for _, k := range kids {
			if k.state != 'Z' {
				_ = syscall.Kill(k.pid, syscall.SIGKILL)
				killed = append(killed, fmt.Sprintf("%d (%s)", k.pid, k.comm))
			}
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(k.pid, &ws, 0, nil)
		}
	}
	return killed
}

type child struct {
	pid   int
	comm  string
	state byte
}

// childrenOf lists the processes whose parent is ppid, outside process group skip.
func childrenOf(ppid, skip int) []child {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []child
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || end < open {
			continue
		}
		f := bytes.Fields(b[end+1:]) // state ppid pgrp ...
		if len(f) < 3 || len(f[0]) != 1 {
			continue
		}
		parent, _ := strconv.Atoi(string(f[1]))
		pgrp, _ := strconv.Atoi(string(f[2]))
		if parent == ppid && pgrp != skip {
			out = append(out, child{pid: pid, comm: string(b[open+1 : end]), state: f[0][0]})
		}
	}
	return out
}
