package recovery

import (
	"context"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/attempt"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/planparse"
)

// stopped is what resume knows of the attempt the run stopped in: the
// facts its decision rests on, and nothing else.
type stopped struct {
	kind   planparse.Kind
	status record.RunStatus
	phase  string // runstate.Phase*: how far the attempt got
	retry  bool   // --retry
	inSlot bool   // a wave task's attempt, done in a slot of its own
	// changed: the attempt changed files; edited: a person changed files
	// since the stop; hand: some of those belong to the task
	// (verify.Belongs), so that its work is in the tree.
	changed, edited, hand bool
}

// resumeWith is what resume does with a stopped attempt.
type resumeWith int

const (
	// refuseEdits: killed mid-step, and a person worked on the partial
	// output since: nothing can tell the two apart, the person decides.
	refuseEdits resumeWith = iota
	// rerunFromSlot: a wave task's work is kept under its slot's ref;
	// what is here is a person's, kept under a ref, and the task runs again.
	rerunFromSlot
	retryAfresh     // --retry: the attempt's work is dropped, the task runs again
	verifyPerson    // a manual task: the person's work, or its lack, is verified
	restartPartial  // stopped mid-step: partial output dropped, the task runs again
	verifyCompleted // crashed after its executor finished: the work is complete
	verifyFixed     // a failure with work in the tree: verified and gated again
	rerunEmpty      // a failure that left nothing of the task's: the task runs again
)

// whatResumeDoes decides, from the stop alone, what resume does with it.
func whatResumeDoes(s stopped) resumeWith {
	manual := s.kind == planparse.KindManual && s.status == record.RunWaiting
	midStep := s.phase == runstate.PhaseExecute && s.status != record.RunFailed
	switch {
	case !s.retry && !manual && midStep && s.edited && s.changed:
		return refuseEdits
	case s.inSlot && (s.retry || !manual):
		return rerunFromSlot
	case s.retry:
		return retryAfresh
	case manual:
		return verifyPerson
	case midStep:
		return restartPartial
	case s.phase != runstate.PhaseExecute && s.status != record.RunFailed:
		return verifyCompleted
	case s.changed || s.hand:
		return verifyFixed
	}
	return rerunEmpty
}

// ReuseAttempt decides whether the stopped task's work in the tree is kept
// (true: verify, gate, commit it) or discarded so the task runs again
// (--retry; or inSlot: a wave task whose work was in its own work tree,
// not this one, where only a person's edits are). It never runs the task
// again over bytes a person changed since the stop without keeping them
// under a ref first. hand is what it found of a person's edits since the
// stop, for the attempt that goes on (verify.Belongs splits them).
// kind is t's executor, expect planx's last commit; stops are the run st's
// snapshots, and log records a retry.
func ReuseAttempt(ctx context.Context, stops attempt.Records, st *runstate.State, log *execlog.Log, t *planparse.Task, kind planparse.Kind, expect gitops.SHA, retry, inSlot bool) (bool, verify.Hand, error) {
	d, err := stops.Compare(ctx, t.ID, expect)
	if err != nil {
		return false, verify.Hand{}, err
	}
	edited, staged, err := stops.PersonEdits(ctx, d, expect)
	if err != nil {
		return false, verify.Hand{}, err
	}
	// Run again, what the task's new attempt changed of the person's edits
	// is told against the tree they were found in.
	rerun := verify.Hand{Edited: edited, Staged: staged, Attempt: d.Changed, At: d.Now()}
	resumed := verify.Hand{Edited: edited, Staged: staged, Attempt: d.Changed, Resumed: true, At: d.Now(),
		AtCommit: st.Phase == runstate.PhaseCommit && st.Status == record.RunFailed}
	if kind == planparse.KindManual {
		// The person is a manual task's executor: all their edits are its.
		resumed.Attempt = edited
	}
	hand := handOwns(t, resumed)
	do := whatResumeDoes(stopped{kind: kind, status: st.Status, phase: st.Phase, retry: retry, inSlot: inSlot,
		changed: len(d.Changed) > 0, edited: len(d.Edited) > 0, hand: hand})
	if do == refuseEdits {
		return false, verify.Hand{}, stops.RefuseOverEdits(t.ID, d)
	}
	if err := stops.KeepStagedApart(ctx, ""); err != nil {
		return false, verify.Hand{}, err
	}
	switch do {
	case rerunFromSlot:
		if retry {
			NoteFinished(st, t, "by a retry")
			log.Resolve(string(t.ID), "retried: `planx resume --retry` ran the task again")
		} else {
			NoteFinished(st, t, "by running it again")
		}
		if err := stops.KeepForRerun(ctx, d, expect); err != nil {
			return false, verify.Hand{}, err
		}
		return false, rerun, stops.Discard(ctx, d, false)
	case retryAfresh:
		NoteFinished(st, t, "by a retry")
		log.Resolve(string(t.ID), "retried: `planx resume --retry` ran the task again")
		return false, rerun, stops.Discard(ctx, d, true)
	case verifyPerson:
		return true, resumed, nil
	case restartPartial:
		noteResumed(st, t, d, true, false)
		return false, rerun, stops.Discard(ctx, d, true)
	case verifyCompleted:
		noteResumed(st, t, d, false, hand)
		return true, resumed, nil
	case verifyFixed:
		noteResumed(st, t, d, false, hand)
		return true, resumed, nil
	}
	noteResumed(st, t, d, true, false)
	// The person's edits, none of them the task's, are kept under a ref
	// before it runs again over them.
	return false, rerun, stops.Discard(ctx, d, true)
}

// handOwns says whether any of a person's edits h go into t's commit.
func handOwns(t *planparse.Task, h verify.Hand) bool {
	own, _ := verify.Belongs(verify.HandEdits{Attempt: h.Attempt, Declared: t.Files, Edited: h.Edited, Staged: h.Staged, AtCommit: h.AtCommit})
	return len(own) > 0
}
