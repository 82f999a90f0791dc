package executor

import (
	"errors"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/planparse"
)

// Nothing outlives the executor: a process a step, an agent or a gate
// detached from its process group (setsid, a double fork) could change the
// task's files after they were verified, between the gates and the commit.
// planx is the child subreaper of everything it starts (Linux), so such
// processes become its children when orphaned and are killed when the
// executor ends, before verify, and again after the gates.

// startReaper makes planx a subreaper and says what that covers.
func startReaper() (bool, string) {
	if err := proc.BecomeSubreaper(); err != nil {
		return false, "only each executor's process group is killed when it ends (" + err.Error() + "): a process it detaches with setsid survives"
	}
	return true, "killed when the executor ends, even when detached with setsid (planx is their child subreaper)"
}

// reapDetached kills what the executor left running outside its group.
func (r *runner) reapDetached(t *planparse.Task) {
	if !r.reaper {
		return
	}
	if killed := proc.KillDetached(); len(killed) > 0 {
		r.warnIssue(t, "killed "+strings.Join(killed, ", ")+": processes the executor left running after it ended")
	}
}

// reapHooks kills what the commit's hooks detached and left running (a
// hook's `setsid cmd &`), once git has exited (err: the commit's): gitops
// ends the hooks and what stayed in git's process group; a process that
// left it and lost its parent was reparented to planx. A git left running
// after an interrupt is not waited for here, and nothing is killed.
func (r *runner) reapHooks(t *planparse.Task, err error) {
	if !r.reaper || errors.Is(err, gitops.ErrStillRunning) {
		return
	}
	if killed := proc.KillDetached(); len(killed) > 0 {
		r.warnIssue(t, "killed "+strings.Join(killed, ", ")+": processes the commit hooks left running")
	}
}
