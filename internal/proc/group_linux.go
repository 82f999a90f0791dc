package proc

import (
	"bytes"
	"os"
	"strconv"
)

// groupAlive reports whether a live (not zombie) process is in the group.
// Zombies are skipped because they are dead already; counting them, as
// kill(-pgid, 0) does, would make every stop wait the full grace period
// where orphans are reaped slowly, e.g. in a container whose init does not
// reap.
func groupAlive(pgid int) bool {
	// The common case, a step whose processes have all exited and been
	// reaped, is answered by one kill(2) instead of a walk of /proc.
	if !groupExists(pgid) {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return groupExists(pgid)
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		state, pgrp, ok := parseStat(b)
		if ok && pgrp == pgid && state != 'Z' && state != 'X' {
			return true
		}
	}
	return false
}

// parseStat extracts the state and process group from /proc/<pid>/stat:
// "pid (comm) state ppid pgrp ...". comm may contain spaces and
// parentheses, hence the search for the last ')'.
func parseStat(b []byte) (state byte, pgrp int, ok bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err := strconv.Atoi(string(f[2]))
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], pgrp, true
}
