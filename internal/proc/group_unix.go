//go:build unix

package proc

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup makes the child the leader of a new process group whose id
// is its pid, so that signalling -pid reaches every descendant that did not
// deliberately leave the group.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// groupExists reports whether any process (including an unreaped zombie) is
// still in the group. EPERM means a member exists that we may not signal.
func groupExists(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// stopGroup asks every process in the group to terminate and kills what is
// left after grace. SIGCONT follows SIGTERM because a stopped process would
// otherwise not act on SIGTERM until the grace period is over.
func stopGroup(pgid int, grace time.Duration) {
	if syscall.Kill(-pgid, syscall.SIGTERM) != nil {
		return // the group is already gone
	}
	_ = syscall.Kill(-pgid, syscall.SIGCONT)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !groupAlive(pgid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// KillGroup kills what is left of a process group a previous planx started
// and could not stop because it was itself killed: a resumed run must not
// race an orphaned step still writing to the work tree.
func KillGroup(pgid int) {
	if pgid > 1 && groupAlive(pgid) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// GroupAlive reports whether a process group still has a live member.
func GroupAlive(pgid int) bool { return pgid > 1 && groupAlive(pgid) }
