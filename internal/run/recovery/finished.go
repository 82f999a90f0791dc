package recovery

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/attempt"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// How a task was finished after a stop, for its commit's Planx-Finished
// trailer: a commit that only says "executed in 2 steps" would read as an
// attempt that ran and passed, when a person finished it by hand, or it
// ran again, or was skipped. The note is taken when a recovery command
// decides (resume, --retry, skip) and kept in the run state until a commit
// records it.

// stopSays is how the run st stopped at t, as a Planx-Finished value
// tells it: "step 2 of 3 failed (exit 1)", "gate check failed (exit 1)",
// "an interrupt during its steps".
func stopSays(st *runstate.State, t *planparse.Task) string {
	phase := st.Phase
	if phase == runstate.PhaseExecute {
		phase = "steps"
	}
	switch st.Status {
	case record.RunFailed:
		if step, n, how, ok := FailedStep(st.Log, t); ok && st.Phase == runstate.PhaseExecute {
			return fmt.Sprintf("step %d of %d failed (%s)", step, n, how)
		}
		what := st.Failed // without the advice Reason adds
		if what == "" {
			what = st.Reason
		}
		what, _, _ = strings.Cut(what, "\n")
		return textsafe.Shorten(what, 100)
	case record.RunInterrupted:
		return "an interrupt during its " + phase
	case record.RunWaiting:
		return "a wait for a person"
	}
	return "a crash during its " + phase // found running: no planx ran it
}

// NoteFinished records how t is being finished after the stop st (how:
// "by hand", "by a retry", …), before the recovery command changes st.
func NoteFinished(st *runstate.State, t *planparse.Task, how string) {
	if st.Finished == nil {
		st.Finished = map[planparse.TaskID]string{}
	}
	st.Finished[t.ID] = how + " after " + stopSays(st, t)
}

// resumedHow is how resume finishes the stopped attempt d: rerun says the
// task runs again, else its work in the tree is committed, by hand when
// some of a person's edits since the stop go with it (hand); "" when the
// note would add nothing (a task stopped before it wrote anything).
func resumedHow(d attempt.Delta, rerun, hand bool) string {
	switch {
	case rerun && len(d.Changed) == 0:
		return "" // nothing of the stopped attempt to tell of
	case rerun:
		return "by running it again"
	case hand:
		return "by hand"
	}
	// Committed unchanged: a failure that passed this time (a hook that
	// now allows it, a flaky gate), steps that had finished, or a person's
	// edits that all stay out of the commit.
	return "as it was left"
}

// noteResumed notes how resume finishes t's stopped attempt d (see
// resumedHow), when that says something.
func noteResumed(st *runstate.State, t *planparse.Task, d attempt.Delta, rerun, hand bool) {
	if how := resumedHow(d, rerun, hand); how != "" {
		NoteFinished(st, t, how)
	}
}

// handMade is how a Planx-Finished note names the files a person changed
// by hand that the task's commit holds.
const handMade = "; hand-made: "

// NoteHand adds to t's Planx-Finished note the files of the commit a
// person changed by hand after the stop (verify.Attempt.HandOwn), in place
// of those an earlier attempt of t noted. A task with no note yet (it ran
// after the stop) gets one that says so, or says when the person made the
// edits (when, verify.Hand.When: "while wave 2 ran") in a run not stopped.
func NoteHand(st *runstate.State, t *planparse.Task, files []string, when string) {
	how, _, _ := strings.Cut(st.Finished[t.ID], handMade)
	if len(files) == 0 {
		if how != "" {
			st.Finished[t.ID] = how
		}
		return
	}
	if st.Finished == nil {
		st.Finished = map[planparse.TaskID]string{}
	}
	switch {
	case how == "" && when != "":
		how = "with a person's edits made " + when
	case how == "":
		how = "after a stop, with a person's edits"
	}
	st.Finished[t.ID] = how + handMade + strings.Join(files, ", ")
}
