//go:build unix && !linux

package gitops

import "syscall"

// stopHooks cannot tell git from its hooks without /proc: the whole group
// is asked to terminate (git then removes its locks itself, as a rule).
func stopHooks(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
}
