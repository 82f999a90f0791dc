package gitops

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// stopHooks sends sig to every process of git's process group but git
// itself (the hooks it runs and what they started) and to every
// descendant of git wherever it went (a hook's child that left the group
// with setsid). git is never signalled: a hook that dies makes git fail
// the commit the ordinary way, removing its own index.lock and ref locks,
// which git does not reliably do when it is itself killed by a signal.
func stopHooks(git int, sig syscall.Signal) {
	for _, pid := range hookProcs(git) {
		_ = syscall.Kill(pid, sig)
	}
}

// hookProcs lists the processes of git's group and git's descendants,
// git aside, from one read of /proc.
func hookProcs(git int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	type proc struct{ ppid, pgrp int }
	procs := map[int]proc{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:]) // state ppid pgrp ...
		if len(f) < 3 || string(f[0]) == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		pgrp, _ := strconv.Atoi(string(f[2]))
		procs[pid] = proc{ppid, pgrp}
	}
	mine := func(pid int) bool {
		for seen := 0; pid > 1 && seen < len(procs); seen++ {
			p, ok := procs[pid]
			if !ok {
				return false
			}
			if p.pgrp == git || p.ppid == git {
				return true
			}
			pid = p.ppid
		}
		return false
	}
	var out []int
	for pid := range procs {
		if pid != git && mine(pid) {
			out = append(out, pid)
		}
	}
	return out
}
