//go:build !unix

package gitops

import "os/exec"

// ownProcessGroup is a no-op where there are no process groups.
func ownProcessGroup(*exec.Cmd) {}

// signal stands for a signal where there are none to send.
type signal int

const (
	sigTerm signal = iota
	sigKill
)

// stopHooks cannot reach a hook here; the caller's wait bounds it.
func stopHooks(int, signal) {}

// endGroup has no group to end here.
func endGroup(int) {}
