//go:build linux

package proc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// KillMarked kills every process whose environment holds entry (NAME=value,
// the whole entry), this process and its ancestors aside, and waits until
// they are gone; it returns them as "pid (command)".
//
// After planx itself was killed (SIGKILL, OOM) the steps and agents it ran
// were reparented to init or a reaper above planx, out of reach of
// KillDetached, and one that left its process group and session (setsid)
// is out of reach of a recorded group too. What still names them is the
// environment they inherited from planx (PLANX_RUN_ID), unless they
// cleared it.
func KillMarked(entry string) []string {
	mark := []byte(entry)
	spare := ancestors()
	var killed []string
	// A marked process may fork between the scan and the kill: scan again
	// until a scan finds none, a bounded number of times.
	for range 10 {
		var hit []int
		for _, pid := range allPids() {
			if !spare[pid] && hasEnv(pid, mark) {
				if st, _, comm, ok := readStat(pid); ok && st != 'Z' {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					hit = append(hit, pid)
					killed = append(killed, fmt.Sprintf("%d (%s)", pid, comm))
				}
			}
		}
		if len(hit) == 0 {
			break
		}
		waitEnded(hit)
	}
	return killed
}

// hasEnv reports whether pid's environment holds entry. A process of
// another user, or one gone meanwhile, cannot be read and is not planx's.
func hasEnv(pid int, entry []byte) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return true
		}
	}
	return false
}

// ancestors are this process and its parents up to init: a planx started
// by a marked process (a step running planx) must not kill its own callers.
func ancestors() map[int]bool {
	spare := map[int]bool{}
	for pid := os.Getpid(); pid > 1 && !spare[pid]; {
		spare[pid] = true
		_, ppid, _, ok := readStat(pid)
		if !ok {
			break
		}
		pid = ppid
	}
	return spare
}

// waitEnded waits, 2 s at most, until the killed processes have ended: they
// are not planx's children to wait for, and one ending late could still
// write to the work tree a resumed run works in. A zombie has ended.
func waitEnded(pids []int) {
	for range 100 {
		left := 0
		for _, pid := range pids {
			if st, _, _, ok := readStat(pid); ok && st != 'Z' {
				left++
			}
		}
		if left == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readStat reads pid's state, parent and command from /proc/PID/stat.
func readStat(pid int) (state byte, ppid int, comm string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, "", false
	}
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return 0, 0, "", false
	}
	f := bytes.Fields(b[end+1:]) // state ppid pgrp ...
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, "", false
	}
	ppid, _ = strconv.Atoi(string(f[1]))
	return f[0][0], ppid, string(b[open+1 : end]), true
}
