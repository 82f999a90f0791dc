package drive

import (
	"context"
	"errors"
	"fmt"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/attempt"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/rewind"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// books are the run's two records, the execution log in the work tree and
// the run state under .git/planx, as the run keeps them: a task's entry,
// their saving, the attempts' snapshots and the record of a stop. They
// take the directory's repository, the state, the log, the output and the
// clock as values (runner.books builds them), so that the serial loop, a
// wave and resume keep the same books.
type books struct {
	repo    *gitops.Repo
	st      *runstate.State
	log     *execlog.Log // the state's log; nil before the run's records exist
	out     *progress.Progress
	clock   hall.Desk // the run's clock
	planRel string    // the plan's path, repo-relative
	// pool is the run's pool of linked work trees, which a stop ends with
	// the wave's slots it held (nil: none was made).
	pool **wavepkg.Pool
}

// books are the run's records as the run stands now.
func (r *runner) books() books {
	return books{repo: r.repo, st: r.st, log: r.log, out: r.out, clock: r.desk(), planRel: r.planRel, pool: &r.pool}
}

// logTask returns the log's entry for t, adding it on first use.
func (b books) logTask(t *planparse.Task) *execlog.Task {
	if lt := b.log.TaskByID(string(t.ID)); lt != nil {
		return lt
	}
	b.log.Tasks = append(b.log.Tasks, execlog.Task{ID: string(t.ID), Label: t.Label, Title: t.Title, Status: record.TaskPending})
	return &b.log.Tasks[len(b.log.Tasks)-1]
}

// save writes the execution log into the work tree and the run state under .git/planx.
func (b books) save() error {
	if err := b.log.Write(b.repo.Root, b.repo.Config().Durable()); err != nil {
		return fmt.Errorf("write execution log: %w", err)
	}
	return b.st.Save(b.repo)
}

// stop records why the run stopped, in the log and the state, and returns
// the error the caller maps to an exit code. see is shown below tail (see
// outcome.Failure).
func (b books) stop(t *planparse.Task, status record.RunStatus, what, tail string, kind error, see ...string) error {
	now := b.clock.Now()
	if lt := b.log.TaskByID(string(t.ID)); lt != nil {
		lt.Status, lt.Finished = record.TaskStatus(status), now
		if status == record.RunFailed || status == record.RunInterrupted {
			lt.Failure = what
			if tail != "" {
				lt.Failure += "\n\n" + tail
			}
		}
	}
	b.log.Status = status
	b.log.Issues = append(b.log.Issues, execlog.Issue{Task: string(t.ID), What: what, Time: now})
	b.st.Status, b.st.Current, b.st.Reason = status, t.ID, what
	if status != record.RunFailed {
		b.st.Failed = "" // set by the caller of a failure only
	}
	// The context may be cancelled (the stop is an interrupt): what was
	// there at the stop is recorded all the same.
	snapErr := b.stops().RecordStop(context.Background(), t.ID, string(status))
	wavepkg.DropSlots(b.repo, b.st.RunID, rewind.SlotKeeper(b.repo, b.st), b.out)
	if b.pool != nil {
		*b.pool = nil
	}
	next := nextSteps(b.st, b.repo, t) // after the slots: a kept one is named
	if errors.Is(kind, ErrDrift) {
		next = recovery.DriftNext(t)
	}
	b.log.NextStep = next // the log's summary says what the run said
	saveErr := errors.Join(snapErr, b.save(), b.repo.Index().Sync(context.Background()))
	b.out.TaskStopped(t, status, what, tail, see, next)
	err := fmt.Errorf("%w: %s %s: %s", kind, t.DisplayID(), t.Title, what)
	if saveErr != nil {
		return errors.Join(err, saveErr)
	}
	return err
}

// nextSteps is what to do after t stopped (failed, interrupted or waiting
// for a person).
func nextSteps(st *runstate.State, repo *gitops.Repo, t *planparse.Task) string {
	if next := recovery.WaveNext(st, repo, t); next != "" {
		return next
	}
	return recovery.StoppedNext(st, st.Status, t)
}

// interruptedWhat is why a task stopped when the run was interrupted.
const interruptedWhat = "stopped by a signal (Ctrl-C, SIGTERM, SIGHUP or SIGQUIT) while it ran"

// complete closes a run whose tasks are all committed, serial or in waves.
func (b books) complete(ctx context.Context, res *Result) (*Result, error) {
	b.st.Status, b.st.Current = record.RunCompleted, ""
	// Every task is committed: the bookkeeping left is finished even when
	// a signal came meanwhile (it is quick, and stopping here would leave
	// a done run looking stopped).
	if err := b.repo.Index().Sync(context.WithoutCancel(ctx)); err != nil {
		return res, err
	}
	// The run's commits left git's automatic maintenance to here
	// (gitops.Commits.Maintain): one pass, before the run's end is
	// recorded, so that a stop during it leaves a run resume completes. A
	// failure of it is git's to report another time.
	_ = b.repo.Commits().Maintain(context.WithoutCancel(ctx))
	// The run's count, not this command's: after a resume or a skip the
	// tasks committed before it are the run's too.
	if err := endFinished(ctx, b, len(b.st.ToRun)-len(b.st.Skipped)); err != nil {
		return res, err
	}
	res.Status = record.RunCompleted
	return res, nil
}

// stops are the run's attempt snapshots.
func (b books) stops() attempt.Records {
	s := attempt.Records{Repo: b.repo, State: b.st, Out: b.out, PlanRel: b.planRel}
	if b.log != nil {
		s.LogPath = b.log.Path
	}
	return s
}

// endFinished ends a run whose tasks are all done: it keeps what `planx
// undo` needs, drops the run's state and says how to undo the run, naming
// the uncommitted work its rollback commit took (that work is on the
// branch now, and goes with a push).
// done is the number of tasks committed, for the line that ends the run.
func endFinished(ctx context.Context, b books, done int) error {
	// Every task is committed: a signal now must not leave the run half ended.
	ctx = context.WithoutCancel(ctx)
	head, err := b.repo.Head(ctx)
	if err != nil {
		return err
	}
	keep := b.st.Base != "" && head.SHA != ""
	if keep {
		if err := runstate.SaveFinished(b.repo, b.st, head.SHA); err != nil {
			return err
		}
	}
	if err := recovery.EndRun(b.repo, b.st, b.out); err != nil {
		return err
	}
	b.out.RunDone(b.log.Path, done)
	if !keep {
		return nil
	}
	took, err := recovery.RollbackTook(ctx, b.repo, b.st)
	if err != nil {
		return err
	}
	if len(took) > 0 {
		b.out.Println("planx: the rollback commit %s holds your uncommitted work from before the run (%s): it is on the branch now and goes with a push; `planx undo` puts it back uncommitted",
			b.st.Base.Short(), recovery.NameSome(took, 10))
	}
	b.out.Println("planx: to take this run back off the branch: planx undo")
	return nil
}
