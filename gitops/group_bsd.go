//go:build unix && !linux

package gitops

import "syscall"

// stopHooks cannot tell git from its hooks without /proc: the whole group
// is asked to terminate (git then removes its locks itself, as a rule).
// It is never killed: git would be killed with its hooks.
func stopHooks(pgid int, sig syscall.Signal) {
	if sig == syscall.SIGTERM {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
	}
}
