//go:build unix

package gitops

import (
	"os/exec"
	"syscall"
)

func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)

// endGroup kills what is left of the process group of a git that has
// exited: a hook's children that stayed in it. (Those that left it and
// lost their parent are reparented to planx, the subreaper, or to init.)
func endGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
