package drive

import (
	"context"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/planparse"
)

// runTask executes, verifies, gates and commits one task. Each phase is
// saved before it starts, so a crash anywhere can be resumed. An agent task
// may get several attempts, each told why the previous one failed.
func (r *runner) runTask(ctx context.Context, t *planparse.Task, last, already bool) (gitops.SHA, error) {
	lt := r.books().logTask(t)
	lt.Status, lt.Started, lt.Failure = record.TaskRunning, r.o.NowUTC(), ""
	lt.Attempts++
	r.st.Status, r.st.Current, r.st.Reason = record.RunRunning, t.ID, ""
	if !already {
		// Whatever stops the run from here on (an interrupt during the
		// reads below), the state must not say the previous task's phase
		// for this one: a resume would take the task as executed.
		r.st.Phase = runstate.PhaseExecute
	}
	if err := r.books().stops().Begin(ctx, t, already, r.expect, len(r.dirty) > 0); err != nil {
		return "", err
	}
	if err := nameStepSpace(r.st, r.jail, r.Executor(t), t, r.repo.Root, already); err != nil {
		return "", err
	}
	tu, err := r.newTurn(ctx, r.serial(), t, lt)
	if err != nil {
		return "", err
	}
	if already {
		tu.Resume(verify.WatchFileOf(r.repo, r.st.RunID).Load(t.ID))
	}
	tu.Hand = r.hand
	if err := tu.attempts(ctx, last, already); err != nil {
		return "", err
	}
	if r.hand.Any() && (tu.kind != planparse.KindManual || r.st.Finished[t.ID] != "") {
		// (A manual task's work is all a person's: Planx-Executor says so.)
		recovery.NoteHand(r.st, t, tu.HandOwn, r.hand.When)
	}
	if err := tu.setPhase(runstate.PhaseCommit); err != nil {
		return "", err
	}
	r.out.Phase(t.ID, "commit")
	sha, err := r.commit(ctx, t, lt, last, tu.Folded, tu.Warnings)
	if err == nil {
		r.hand = r.hand.Left(tu.Apart)
	}
	if err != nil && tu.gatesPassed {
		// Stopped after its gates passed (a commit hook refused): a resume
		// on the same tree need not run them again.
		r.keeper().Book().RecordGatesPassed(context.WithoutCancel(ctx), t, lt)
	}
	if err != nil && ctx.Err() == nil {
		// The stop is the commit's (a hook refused it), whatever phase a
		// shell task saved: a person's fix after it is the commit's
		// (verify.Belongs).
		r.st.Phase = runstate.PhaseCommit
	}
	return sha, err
}

func (r *runner) issue(id planparse.TaskID, what string) execlog.Issue {
	return execlog.Issue{Task: string(id), What: what, Time: r.o.NowUTC()}
}
