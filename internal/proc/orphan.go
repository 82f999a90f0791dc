package proc

// OrphanGroup reports whether the process group a previous planx recorded
// (its leader's pid and start time, see StartTime) may still have members
// that planx started. A leader pid that now belongs to a process with
// another start time was reused, which the kernel does only once the old
// group is gone: that group is never signalled. A leader that has exited
// while members live on is the old group (its id cannot be reused while
// the group exists). Without a recorded start time only the pid is known.
func OrphanGroup(pgid int, start uint64) bool {
	if pgid <= 1 || !GroupAlive(pgid) {
		return false
	}
	if start == 0 {
		return true
	}
	now := StartTime(pgid)
	return now == 0 || now == start
}
