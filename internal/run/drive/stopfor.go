package drive

import (
	"context"
	"errors"
	"strings"
	"syscall"

	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// stop is how the run stops at a task that did not commit: its status,
// what the log and the person are told (with the failure's output and the
// files to see), the error the exit code is mapped from, and what the
// state records as the failure ("" for none: Reason says it all).
type stop struct {
	status record.RunStatus
	what   string
	tail   string
	see    []string
	kind   error
	failed string
	own    bool // planx's own error, returned as it is
}

// stopFor decides how err stops the run (interrupted: the run's context
// was cancelled). An error that is none of a failure, a manual task, an
// interruption or a full disk is planx's own: it stops the run as failed
// with err itself as the error.
func stopFor(err error, interrupted bool) stop {
	var fail *outcome.Failure
	switch {
	case errors.As(err, &fail):
		return stop{status: record.RunFailed, what: fail.ForUser(), tail: fail.Tail, see: fail.See, kind: ErrTaskFailed, failed: fail.What}
	case errors.Is(err, ErrManual):
		return stop{status: record.RunWaiting, what: "manual task: waiting for a person", kind: ErrManual}
	case interrupted || errors.Is(err, context.Canceled):
		return stop{status: record.RunInterrupted, what: interruptedWhat, kind: ErrInterrupted}
	case diskFull(err):
		// Not planx's fault nor the task's: a stop like a failure, so that
		// resume goes on from the work in the tree once there is space.
		what := "the disk is full (" + err.Error() + "); free some space, then `planx resume` goes on from the task's work as it stands"
		return stop{status: record.RunFailed, what: what, kind: ErrTaskFailed, failed: what}
	}
	return stop{status: record.RunFailed, what: err.Error(), kind: err, own: true}
}

// stopTask stops the run at a task that did not commit, in the serial
// loop and between waves alike (stopFor decides how).
func (r *runner) stopTask(ctx context.Context, t *planparse.Task, err error, res *Result) error {
	s := stopFor(err, ctx.Err() != nil)
	r.st.Failed = s.failed
	stopErr := r.books().stop(t, s.status, s.what, s.tail, s.kind, s.see...)
	if s.own {
		return err
	}
	res.Status = s.status
	if stopErr != nil {
		res.Next = r.log.NextStep // what the stop told the person (package recovery's next.go)
	}
	return stopErr
}

// diskFull reports whether err is a write that found no space: ENOSPC or
// EDQUOT from planx's own writes, or git's words for them.
func diskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "No space left on device") || strings.Contains(msg, "Disk quota exceeded")
}
