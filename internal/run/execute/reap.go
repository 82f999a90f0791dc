package execute

import (
	"errors"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/proc"
)

// Reaper is the run's proc.Reaper, which also knows a commit's hooks.
type Reaper struct{ proc.Reaper }

// StartReaper makes planx a subreaper and says what that covers.
func StartReaper() Reaper { return Reaper{proc.StartReaper()} }

// AfterHooks kills what the commit's hooks detached and left running (a
// hook's `setsid cmd &`), once git has exited (err: the commit's), and says
// what it killed: gitops ends the hooks and what stayed in git's process
// group; a process that left it and lost its parent was reparented to
// planx. A git left running after an interrupt is not waited for here, and
// nothing is killed.
func (rp Reaper) AfterHooks(err error) string {
	if errors.Is(err, gitops.ErrStillRunning) {
		return ""
	}
	return rp.Reap("processes the commit hooks left running")
}
