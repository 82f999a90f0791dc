//go:build unix && !linux

package proc

// groupAlive falls back to kill(2) where there is no /proc to tell zombies
// from live processes.
func groupAlive(pgid int) bool { return groupExists(pgid) }
