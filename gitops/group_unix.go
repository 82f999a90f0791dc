//go:build unix

package gitops

import (
	"os/exec"
	"syscall"
)

func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminateGroup asks a process group (git and the hooks it runs) to stop.
func terminateGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
}
