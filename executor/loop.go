package executor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/planx-dev/planx/attempt"
	"github.com/planx-dev/planx/checks"
	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/rewind"
	"github.com/planx-dev/planx/runstate"
	"github.com/planx-dev/planx/verify"
	wavepkg "github.com/planx-dev/planx/wave"
)

// loop runs tasks in order. When resumeFirst is set the first task's work is
// already in the tree (a manual task done, or a failure fixed by hand): it is
// verified, gated and committed without executing it again.
func (r *runner) loop(ctx context.Context, tasks []*planparse.Task, resumeFirst bool) (*Result, error) {
	res := &Result{RunID: r.st.RunID, LogPath: r.log.Path, Base: string(r.st.Base)}
	for i, t := range tasks {
		last := i == len(tasks)-1
		if i > 0 {
			if err := r.checkPinned(t); err != nil {
				res.Status, res.Next = record.RunInterrupted, "look at the plan's change, then `planx resume`"
				return res, err
			}
		}
		r.out.TaskStart(i+1, len(tasks), t)
		sha, err := r.runTask(ctx, t, last, resumeFirst && i == 0)
		if err != nil {
			return res, r.stopTask(ctx, t, err, res)
		}
		res.Done = append(res.Done, t.ID)
		r.out.TaskDone(t, sha)
	}
	return r.complete(ctx, res)
}

// complete closes a run whose tasks are all committed, serial or in waves.
func (r *runner) complete(ctx context.Context, res *Result) (*Result, error) {
	r.st.Status, r.st.Current = record.RunCompleted, ""
	// Every task is committed: the bookkeeping left is finished even when
	// a signal came meanwhile (it is quick, and stopping here would leave
	// a done run looking stopped).
	if err := r.repo.Index().Sync(context.WithoutCancel(ctx)); err != nil {
		return res, err
	}
	if err := endRun(r.repo); err != nil {
		return res, err
	}
	res.Status = record.RunCompleted
	r.out.RunDone(r.log.Path, len(res.Done))
	return res, nil
}

// runTask executes, verifies, gates and commits one task. Each phase is
// saved before it starts, so a crash anywhere can be resumed. An agent task
// may get several attempts, each told why the previous one failed.
func (r *runner) runTask(ctx context.Context, t *planparse.Task, last, already bool) (gitops.SHA, error) {
	lt := r.logTask(t)
	lt.Status, lt.Started, lt.Failure = record.TaskRunning, r.o.now(), ""
	lt.Attempts++
	r.st.Status, r.st.Current, r.st.Reason = record.RunRunning, t.ID, ""
	if !already {
		// Whatever stops the run from here on (an interrupt during the
		// reads below), the state must not say the previous task's phase
		// for this one: a resume would take the task as executed.
		r.st.Phase = runstate.PhaseExecute
	}
	if err := r.stops().Begin(ctx, t, already, r.expect, len(r.dirty) > 0); err != nil {
		return "", err
	}
	kind := r.Executor(t)
	lt.Executor = string(kind)
	tu := &turn{r: r, t: t, lt: lt, kind: kind, cheapRedo: kind == planparse.KindShell}
	tu.Guard = r.repo.Config().Guard(r.st.RunID)
	tu.Meta = r.repo.Config().SnapshotMeta()
	replace, err := verify.ReplaceRefs(ctx, r.repo)
	if err != nil {
		return "", err
	}
	tu.Replace = replace
	if already {
		tu.Resume(checks.WatchFile(r.repo, r.st.RunID).Load(t.ID))
	}
	feedback := ""
	for n := 1; ; n++ {
		err := tu.try(ctx, round{n: n, feedback: feedback, resumed: already, last: last})
		var f *outcome.Failure
		if errors.As(err, &f) && kind == planparse.KindAgent && n < r.o.Attempts && !f.GaveUp {
			is := r.issue(t.ID, fmt.Sprintf("attempt %d failed: %s", n, f.What))
			is.Resolution = fmt.Sprintf("retried: attempt %d of %d", n+1, r.o.Attempts)
			r.log.Issues = append(r.log.Issues, is)
			r.out.Warn(t.ID, fmt.Sprintf("attempt %d failed: %s; trying again (%d/%d)", n, f.What, n+1, r.o.Attempts))
			feedback = f.What
			if f.Tail != "" {
				feedback += "\n\n" + f.Tail
			}
			lt.Attempts++
			already = false
			continue
		}
		if err != nil {
			return "", err
		}
		break
	}
	if err := tu.setPhase(runstate.PhaseCommit); err != nil {
		return "", err
	}
	r.out.Phase("commit")
	sha, err := r.commit(ctx, t, lt, last, tu.Folded, tu.Warnings)
	if err != nil && tu.gatesPassed {
		// Stopped after its gates passed (a commit hook refused): a resume
		// on the same tree need not run them again.
		r.keeper().Book().RecordGatesPassed(context.WithoutCancel(ctx), t, lt)
	}
	return sha, err
}

// logTask returns the log's entry for t, adding it on first use.
func (r *runner) logTask(t *planparse.Task) *execlog.Task {
	if lt := r.log.TaskByID(string(t.ID)); lt != nil {
		return lt
	}
	r.log.Tasks = append(r.log.Tasks, execlog.Task{ID: string(t.ID), Label: t.Label, Title: t.Title, Status: record.TaskPending})
	return &r.log.Tasks[len(r.log.Tasks)-1]
}

// save writes the execution log into the work tree and the run state under .git/planx.
func (r *runner) save() error {
	if err := r.log.Write(r.repo.Root, r.repo.Config().Durable()); err != nil {
		return fmt.Errorf("write execution log: %w", err)
	}
	return r.st.Save(r.repo)
}

// stop records why the run stopped, in the log and the state, and returns
// the error the caller maps to an exit code. see is shown below tail (see
// outcome.Failure).
func (r *runner) stop(t *planparse.Task, status record.RunStatus, what, tail string, kind error, see ...string) error {
	now := r.o.now()
	if lt := r.log.TaskByID(string(t.ID)); lt != nil {
		lt.Status, lt.Finished = record.TaskStatus(status), now
		if status == record.RunFailed || status == record.RunInterrupted {
			lt.Failure = what
			if tail != "" {
				lt.Failure += "\n\n" + tail
			}
		}
	}
	r.log.Status = status
	r.log.Issues = append(r.log.Issues, r.issue(t.ID, what))
	r.st.Status, r.st.Current, r.st.Reason = status, t.ID, what
	// The context may be cancelled (the stop is an interrupt): what was
	// there at the stop is recorded all the same.
	snapErr := r.stops().RecordStop(context.Background(), t.ID, string(status))
	wavepkg.DropSlots(r.repo, r.st.RunID, rewind.SlotKeeper(r.repo, r.st), r.out)
	r.pool = nil
	saveErr := errors.Join(snapErr, r.save(), r.repo.Index().Sync(context.Background()))
	next := nextSteps(r.st, r.repo, t)
	if errors.Is(kind, ErrInterrupted) {
		next = interruptedNext(r.st, r.repo, t)
	}
	r.out.TaskStopped(t, status, what, tail, see, next)
	err := fmt.Errorf("%w: %s %s: %s", kind, t.DisplayID(), t.Title, what)
	if saveErr != nil {
		return errors.Join(err, saveErr)
	}
	return err
}

// nextSteps is what to do after t failed.
func nextSteps(st *runstate.State, repo *gitops.Repo, t *planparse.Task) string {
	if next := waveNext(st, repo, t); next != "" {
		return next
	}
	return fmt.Sprintf("the changes of %s are left in the work tree; fix the cause, then `planx resume` (re-verify, re-gate, commit), or re-run the plan", t.DisplayID())
}

// interruptedWhat is why a task stopped when the run was interrupted.
const interruptedWhat = "stopped by an interrupt (Ctrl-C or SIGTERM) while it ran"

// interruptedNext is what to do after an interrupt: nothing failed, so
// there is no cause to fix.
func interruptedNext(st *runstate.State, repo *gitops.Repo, t *planparse.Task) string {
	if next := waveNext(st, repo, t); next != "" {
		return next
	}
	return fmt.Sprintf("what %s changed before the interrupt is left in the work tree; `planx resume --retry` runs it again from the start, `planx resume` commits it as it stands (finish it by hand first), `planx abort` undoes the run", t.DisplayID())
}

func relJoin(root, p string) string { return filepath.Join(root, filepath.FromSlash(p)) }

func (r *runner) issue(id planparse.TaskID, what string) execlog.Issue {
	return execlog.Issue{Task: string(id), What: what, Time: r.o.now()}
}

// stops are the run's attempt snapshots.
func (r *runner) stops() attempt.Records {
	s := attempt.Records{Repo: r.repo, State: r.st, Out: r.out, PlanRel: r.planRel}
	if r.log != nil {
		s.LogPath = r.log.Path
	}
	return s
}
