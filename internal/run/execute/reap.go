package execute

import (
	"errors"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/proc"
)

// Nothing outlives the executor: a process a step, an agent or a gate
// detached from its process group (setsid, a double fork) could change the
// task's files after they were verified, between the gates and the commit.
// planx is the child subreaper of everything it starts (Linux), so such
// processes become its children when orphaned and are killed when the
// executor ends, before verify, and again after the gates.

// Reaper is whether planx is the subreaper of detached descendants, and
// what happens to them, for the log's preflight.
type Reaper struct {
	On   bool
	Note string
}

// StartReaper makes planx a subreaper and says what that covers.
func StartReaper() Reaper {
	if err := proc.BecomeSubreaper(); err != nil {
		return Reaper{Note: "only each executor's process group is killed when it ends (" + err.Error() + "): a process it detaches with setsid survives"}
	}
	return Reaper{On: true, Note: "killed when the executor ends, even when detached with setsid (planx is their child subreaper)"}
}

// Detached kills what the executor left running outside its group, and
// says what it killed ("" when nothing).
func (rp Reaper) Detached() string {
	if !rp.On {
		return ""
	}
	if killed := proc.KillDetached(); len(killed) > 0 {
		return "killed " + strings.Join(killed, ", ") + ": processes the executor left running after it ended"
	}
	return ""
}

// AfterHooks kills what the commit's hooks detached and left running (a
// hook's `setsid cmd &`), once git has exited (err: the commit's), and says
// what it killed: gitops ends the hooks and what stayed in git's process
// group; a process that left it and lost its parent was reparented to
// planx. A git left running after an interrupt is not waited for here, and
// nothing is killed.
func (rp Reaper) AfterHooks(err error) string {
	if !rp.On || errors.Is(err, gitops.ErrStillRunning) {
		return ""
	}
	if killed := proc.KillDetached(); len(killed) > 0 {
		return "killed " + strings.Join(killed, ", ") + ": processes the commit hooks left running"
	}
	return ""
}
