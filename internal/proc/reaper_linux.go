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
	pids, ok := childPids(ppid)
	if !ok {
		pids = allPids()
	}
	var out []child
	for _, pid := range pids {
		if c, ok := readChild(pid, ppid, skip); ok {
			out = append(out, c)
		}
	}
	return out
}

// childPids reads ppid's children from /proc/PID/task/TID/children, one
// file per thread (a reparented orphan's parent is whichever thread of the
// reaper the kernel chose): a few small reads, where scanning every
// process of the machine costs milliseconds on a busy one. ok is false
// when the kernel has no such files (CONFIG_PROC_CHILDREN off).
func childPids(ppid int) (pids []int, ok bool) {
	dir := "/proc/" + strconv.Itoa(ppid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			if os.IsNotExist(err) && !exists(dir+"/"+t.Name()) {
				continue // the thread ended meanwhile
			}
			return nil, false
		}
		for _, f := range bytes.Fields(b) {
			if pid, err := strconv.Atoi(string(f)); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids, true
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// allPids lists every process of the machine.
func allPids() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// readChild reads pid's state, and reports it when its parent is ppid and
// its process group is not skip.
func readChild(pid, ppid, skip int) (child, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return child{}, false
	}
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return child{}, false
	}
	f := bytes.Fields(b[end+1:]) // state ppid pgrp ...
	if len(f) < 3 || len(f[0]) != 1 {
		return child{}, false
	}
	parent, _ := strconv.Atoi(string(f[1]))
	pgrp, _ := strconv.Atoi(string(f[2]))
	if parent != ppid || pgrp == skip {
		return child{}, false
	}
	return child{pid: pid, comm: string(b[open+1 : end]), state: f[0][0]}, true
}
