package proc

import "strings"

// Nothing outlives the executor: a process a step, an agent or a gate
// detached from its process group (setsid, a double fork) could change the
// task's files after they were verified, between the gates and the commit.
// planx is the child subreaper of everything it starts (Linux), so such
// processes become its children when orphaned and are killed when the
// executor ends, before verify, and again after the gates.

// Reaper is whether planx is the subreaper of detached descendants, and
// what happens to them, for the log's preflight. The zero Reaper kills
// nothing: a wave's task cannot tell what it left from what the wave's
// other tasks run, so the wave reaps once they have all ended.
type Reaper struct {
	On   bool
	Note string
}

// StartReaper makes planx a subreaper and says what that covers.
func StartReaper() Reaper {
	if err := BecomeSubreaper(); err != nil {
		return Reaper{Note: "only each executor's process group is killed when it ends (" + err.Error() + "): a process it detaches with setsid survives"}
	}
	return Reaper{On: true, Note: "killed when the executor ends, even when detached with setsid (planx is their child subreaper)"}
}

// Detached kills what the executor left running outside its group, and
// says what it killed ("" when nothing).
func (rp Reaper) Detached() string {
	return rp.Reap("processes the executor left running after it ended")
}

// Reap kills what was left running outside planx's process groups and
// reparented to it, and says what it killed, as what it was ("" when
// nothing, or when planx is no subreaper).
func (rp Reaper) Reap(what string) string {
	if !rp.On {
		return ""
	}
	if killed := KillDetached(); len(killed) > 0 {
		return "killed " + strings.Join(killed, ", ") + ": " + what
	}
	return ""
}
