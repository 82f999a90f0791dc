package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/aside"
	"github.com/planx-dev/planx/internal/run/land"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/rewind"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/verify"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Resume continues a stopped run. What is done is read from git: task
// commits of this run on the branch since its rollback commit. The stopped
// task is then either committed as it stands in the tree (a manual task done,
// a failure fixed by hand, a crash after its work was complete) or executed
// again from a clean slate (--retry, or a crash or interrupt mid-execution).
func Resume(ctx context.Context, ro ResumeOptions) (*Result, error) {
	r, tasks, unlock, err := openStopped(ctx, ro, "resume")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := r.noteHandConfig(ctx, ro.Repin); err != nil {
		return nil, err
	}
	if len(tasks) == 0 || len(r.st.Wave) > 0 || tasks[0].ID != r.st.Current {
		// (A stopped task's attempt keeps them in recovery.ReuseAttempt, once it
		// is known that resume goes on.)
		if err := r.books().stops().KeepStagedApart(ctx, ""); err != nil {
			return nil, err
		}
	}
	if len(tasks) == 0 {
		return finish(ctx, r.books(), r.head.SHA, r.Plan.Topic, r.o.NoVerify, r.keeper().Final)
	}
	if len(r.st.Wave) > 0 {
		// The wave's tasks run in work trees of their own; the tasks after
		// it, in this one, with the person's edits.
		if err := r.findHand(ctx); err != nil {
			return nil, err
		}
		return (&waveLoop{r: r}).resume(ctx, tasks)
	}
	first := tasks[0]
	already := false
	if first.ID == r.st.Current {
		// A wave task that failed did its work in a work tree of its own:
		// kept under a ref here, it runs again in the user's work tree.
		inSlot := wavepkg.FailedIn(r.repo, r.st.RunID, string(first.ID))
		if err := wavepkg.KeepFailed(ctx, r.repo, r.st.RunID, string(first.ID), rewind.SlotKeeper(r.repo, r.st), r.out); err != nil {
			return nil, err
		}
		if what := verify.WatchFileOf(r.repo, r.st.RunID).CheckInterrupted(first.ID); what != "" {
			r.st.Failed = what
			return nil, r.books().stop(first, record.RunFailed, what, "", ErrTaskFailed)
		}
		already, r.hand, err = recovery.ReuseAttempt(ctx, r.books().stops(), r.st, r.log, first, r.Executor(first), r.expect, ro.Retry, inSlot)
		if err != nil {
			return nil, err
		}
	} else if err := r.findHand(ctx); err != nil {
		return nil, err
	}
	if !already {
		changes, err := r.repo.Status(ctx)
		if err != nil {
			return nil, err
		}
		r.dirty = dirtyPaths(r.log, changes)
	}
	r.out.Println("planx: resuming run %s of %s at %s (%s left)", r.st.RunID, r.st.PlanPath, first.DisplayID(), textsafe.Count(len(tasks), "task"))
	return r.goOn(ctx, tasks, first.ID == r.st.Current, already)
}

// findHand notes a person's edits in the work tree when no attempt of a
// task is resumed (a stop between tasks, a skip): the tasks that run next
// commit of them only what belongs to them (runner.hand). staged are paths
// planx staged itself (a skipped attempt's), not the person's say.
func (r *runner) findHand(ctx context.Context, staged ...string) error {
	edited, staged, at, err := r.books().stops().EditsNow(ctx, r.expect, staged...)
	if err != nil {
		return err
	}
	r.hand = verify.Hand{Edited: edited, Staged: staged, At: at}
	return nil
}

// goOn runs the tasks left after a stop outside a wave the way the run
// ran them, with the --jobs kept in the run's state, even when the stop
// came before the first wave started; stopped says tasks[0] is the task
// the run stopped at, already that its work is in the tree.
func (r *runner) goOn(ctx context.Context, tasks []*planparse.Task, stopped, already bool) (*Result, error) {
	return (&waveLoop{r: r, stopped: stopped, already: already}).run(ctx, tasks)
}

// Skip marks the stopped task skipped, discards what its attempt changed and
// goes on. The next commit records the skip in a Planx-Skipped trailer.
// Stopped inside a parallel wave, the attempt ran in a slot (kept under a
// ref at the stop), and the wave's other tasks go on as resume takes them.
func Skip(ctx context.Context, ro ResumeOptions) (*Result, error) {
	if err := beforeAnyTask(ctx, ro.Dir); err != nil {
		return nil, err
	}
	r, tasks, unlock, err := openStopped(ctx, ro, "skip")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := skippable(ctx, r, tasks); err != nil {
		return nil, err
	}
	t := tasks[0]
	if err := r.noteHandConfig(ctx, false); err != nil {
		return nil, err
	}
	if what := verify.WatchFileOf(r.repo, r.st.RunID).CheckInterrupted(t.ID); what != "" {
		r.warnIssue(t, what)
	}
	if err := wavepkg.KeepFailed(ctx, r.repo, r.st.RunID, string(t.ID), rewind.SlotKeeper(r.repo, r.st), r.out); err != nil {
		return nil, err
	}
	verify.WatchFileOf(r.repo, r.st.RunID).Drop() // the attempt is discarded
	if err := r.books().stops().KeepStagedApart(ctx, ""); err != nil {
		return nil, err
	}
	var attempted []string // what the attempt changed, which planx staged for its gates
	if len(r.st.Wave) == 0 {
		// (Inside a wave the attempt ran in a slot: the user's work tree
		// holds nothing of it to discard.)
		d, err := r.books().stops().Compare(ctx, t.ID, r.expect)
		if err != nil {
			return nil, err
		}
		if err := r.books().stops().Discard(ctx, d, false); err != nil {
			return nil, err
		}
		attempted = d.Changed
	}
	// The attempt's deletions and overwrites of the user's ignored files
	// are taken back with it (a kill mid-task left them unchecked).
	r.ignored = aside.Check(r.repo, r.st.RunID, r.ignored, r.desk(), t)
	// What a person changed since the stop stays: the next task starts from
	// it, and commits of it only what belongs to it.
	if err := r.findHand(ctx, attempted...); err != nil {
		return nil, err
	}
	changes, err := r.repo.Status(ctx)
	if err != nil {
		return nil, err
	}
	r.dirty = dirtyPaths(r.log, changes)
	recovery.NoteFinished(r.st, t, "skipped")
	r.st.Skipped = append(r.st.Skipped, t.ID)
	r.st.SkipPending = append(r.st.SkipPending, t.ID)
	r.st.Current, r.st.Phase = "", ""
	lt := r.books().logTask(t)
	lt.Status, lt.Finished = record.TaskSkipped, r.o.NowUTC()
	r.log.Resolve(string(t.ID), "skipped: `planx skip` discarded the attempt")
	skip := r.issue(t.ID, "skipped by `planx skip`")
	skip.Resolution = "skipped"
	r.log.Issues = append(r.log.Issues, skip)
	if err := r.books().save(); err != nil {
		return nil, err
	}
	r.out.Println("planx: skipped %s %s", t.DisplayID(), textsafe.Shorten(t.Title, 60))
	if len(tasks) == 1 {
		return finish(ctx, r.books(), r.head.SHA, r.Plan.Topic, r.o.NoVerify, r.keeper().Final)
	}
	if len(r.st.Wave) > 0 {
		// The wave's tasks done in their slots are integrated as they
		// are, never run again (agents cost money); the others run again.
		return (&waveLoop{r: r}).resume(ctx, tasks[1:])
	}
	return r.goOn(ctx, tasks[1:], false, false)
}

// beforeAnyTask refuses a skip of a run stopped before its rollback
// commit was recorded: no task began, and reopening the run would make
// that commit — a refused command must change nothing.
func beforeAnyTask(ctx context.Context, dir string) error {
	repo, err := gitops.Open(ctx, cmp.Or(dir, "."))
	if err != nil {
		return err
	}
	if st, err := runstate.Load(repo); err == nil && st != nil && st.Base == "" {
		return fmt.Errorf("%w: the run stopped before its rollback commit, before any task; nothing to skip: %s", gitops.ErrRepoState, recovery.NotStartedNext)
	}
	return nil
}

// skippable refuses a skip when the run r did not stop at the first of
// the tasks left, or stopped inside a parallel wave at a task whose work
// was done in its slot (a kill leaves the wave's first task as the
// run's): skipping it would throw away work that resume integrates.
func skippable(ctx context.Context, r *runner, tasks []*planparse.Task) error {
	const inWave = "`planx resume` integrates the wave's tasks whose work was done, without running them again, " +
		"and runs the others again; or `planx abort` undoes the run"
	if len(tasks) == 0 || tasks[0].ID != r.st.Current {
		if len(r.st.Wave) > 0 {
			return fmt.Errorf("%w: the run stopped inside a parallel wave, not at one task to skip: %s", gitops.ErrRepoState, inWave)
		}
		return fmt.Errorf("%w: the run is not stopped at a task; nothing to skip", gitops.ErrRepoState)
	}
	t := tasks[0]
	if !slices.Contains(r.st.Wave, t.ID) || !slices.Contains(r.st.WaveDone, t.ID) {
		return nil
	}
	if sha, err := r.repo.Refs().Resolve(ctx, wavepkg.WorkRef(r.st.RunID, t.ID)); err != nil || sha == "" {
		return nil // its work was not kept after all: it runs again, or is skipped
	}
	return fmt.Errorf("%w: %s was done in its own work tree before the stop and awaits integration; nothing stopped there to skip: %s",
		gitops.ErrRepoState, t.DisplayID(), inWave)
}

// openStopped takes the lock, reopens the stopped run, refuses drift unless
// accepted, and returns the tasks left to run.
func openStopped(ctx context.Context, ro ResumeOptions, command string) (*runner, []*planparse.Task, func(), error) {
	r, h, unlock, err := openRun(ctx, ro, command)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := h.RewrittenError(); err != nil {
		unlock()
		return nil, nil, nil, err
	}
	ds := recovery.Drift(ctx, r.pf, r.repo, r.Plan, r.st, h)
	if err := acceptDrift(ds, r.planRel, ro.AcceptDrift, r.log, r.issue, r.out); err != nil {
		unlock()
		return nil, nil, nil, err
	}
	return r, recovery.Remaining(r.Plan, r.st, h), unlock, nil
}

func openRun(ctx context.Context, ro ResumeOptions, command string) (*runner, *recovery.History, func(), error) {
	repo, err := gitops.Open(ctx, cmp.Or(ro.Dir, "."))
	if err != nil {
		return nil, nil, nil, err
	}
	// Nothing to continue: say so before the lock, whose file would create
	// .git/planx/ in a repository that never ran planx.
	if _, err := os.Stat(runstate.Path(repo)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, recovery.ErrNoRun
	}
	lk, err := runstate.Acquire(repo, command)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := land.Unland(ctx, repo, progress.New(ro.Output)); err != nil {
		lk.Release()
		return nil, nil, nil, err
	}
	r, h, err := reopen(ctx, repo, ro)
	if err != nil {
		lk.Release()
		return nil, nil, nil, err
	}
	return r, h, func() { r.jail.Settle(); lk.Release() }, nil
}

// finish ends a run with nothing left to execute. When the log or a skip is
// not yet in any commit, one last commit records them, so the run's end is in
// the history and the tree is clean. head is where HEAD was when the run
// was taken up; finalGates judge the end when the last task was skipped.
func finish(ctx context.Context, b books, head gitops.SHA, topic string, noVerify bool, finalGates func(context.Context) error) (*Result, error) {
	res := &Result{RunID: b.st.RunID, LogPath: b.log.Path, Base: string(b.st.Base), Status: record.RunCompleted}
	changes, err := b.repo.Status(ctx)
	if err != nil {
		return nil, err
	}
	isLog := func(c gitops.Change) bool { return c.Path == b.log.Path }
	if !slices.ContainsFunc(changes, isLog) && len(b.st.SkipPending) == 0 && land.HeadIsTaskCommit(ctx, b.repo, head, b.st.RunID) {
		// The run's last task commit landed with the final log (planx was
		// stopped right after it): nothing is left to record.
		if err := endFinished(ctx, b, len(b.st.ToRun)-len(b.st.Skipped)); err != nil {
			return nil, err
		}
		return res, nil
	}
	if len(b.st.SkipPending) > 0 {
		// The last task was skipped: its commit, which would have run the
		// final gates, never happens.
		if err := finalGates(ctx); err != nil {
			return nil, err
		}
	}
	b.log.Status, b.log.Finished = record.RunCompleted, b.clock.Now()
	if err := b.log.WriteFile(b.repo.Root); err != nil {
		return nil, err
	}
	if changes, err = b.repo.Status(ctx); err != nil {
		return nil, err
	}
	if slices.ContainsFunc(changes, isLog) || len(b.st.SkipPending) > 0 {
		msg := ledger.FinishMessage(topic, b.planRel, b.st.RunID, b.st.SkipPending, b.st.FinishedNotes(nil, b.st.SkipPending))
		// Only the log: anything else in the tree is not the run's to commit.
		if err := b.repo.Index().Stage(ctx, b.log.Path); err != nil {
			return nil, err
		}
		if _, err := b.repo.Commits().Commit(ctx, msg, gitops.CommitOptions{AllowEmpty: true, NoVerify: noVerify}); err != nil {
			return nil, fmt.Errorf("finish run: %w", err)
		}
	}
	if err := endFinished(ctx, b, len(b.st.ToRun)-len(b.st.Skipped)); err != nil {
		return nil, err
	}
	return res, nil
}
