//go:build !unix

package gitops

import "os/exec"

// ownProcessGroup is a no-op where there are no process groups.
func ownProcessGroup(*exec.Cmd) {}

// stopHooks cannot reach a hook here; the caller's wait bounds it.
func stopHooks(int) {}
