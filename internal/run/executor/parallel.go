package executor

import (
	"context"
	"errors"
	"strings"
	"sync"
	"syscall"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// stopTask stops the run at a task that did not commit, in the serial
// loop and between waves alike: what the error means (a failure with its
// hint, a manual task, an interruption, an internal error) decides the
// run's status and what the user is told to do next.
func (r *runner) stopTask(ctx context.Context, t *planparse.Task, err error, res *Result) error {
	var fail *outcome.Failure
	var stopErr error
	switch {
	case errors.As(err, &fail):
		res.Status, r.st.Failed = record.RunFailed, fail.What
		stopErr = r.books().stop(t, record.RunFailed, fail.ForUser(), fail.Tail, ErrTaskFailed, fail.See...)
	case errors.Is(err, ErrManual):
		res.Status = record.RunWaiting
		stopErr = r.books().stop(t, record.RunWaiting, "manual task: waiting for a person", "", ErrManual)
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		res.Status = record.RunInterrupted
		stopErr = r.books().stop(t, record.RunInterrupted, interruptedWhat, "", ErrInterrupted)
	case diskFull(err):
		// Not planx's fault nor the task's: a stop like a failure, so that
		// resume goes on from the work in the tree once there is space.
		what := "the disk is full (" + err.Error() + "); free some space, then `planx resume` goes on from the task's work as it stands"
		res.Status, r.st.Failed = record.RunFailed, what
		stopErr = r.books().stop(t, record.RunFailed, what, "", ErrTaskFailed)
	}
	if stopErr != nil {
		res.Next = r.log.NextStep // what the stop told the person (next.go)
		return stopErr
	}
	r.st.Failed = "" // Reason says it all
	_ = r.books().stop(t, record.RunFailed, err.Error(), "", err)
	return err
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

// wave is one parallel wave in flight: its tasks, each run in its own
// linked work tree from the branch's tip (execute, verify and gate: exec),
// then integrated onto the branch in plan order (integrate). Package
// wave, which holds their mechanics, is imported as wavepkg.
type wave struct {
	r      *runner
	its    []*wavepkg.Task
	base   gitops.SHA // the branch's tip the wave's work trees start from
	number int        // the wave's number in the run, for its trailers and messages
	last   bool       // the run's last wave: its integration gate runs the final gates too
	res    *Result    // the run's result, which the wave's landing and stop fill in
	hooks  wavepkg.Hooks
	// mu serialises the workers' writes to the run's log, state and
	// output: the runner's shared lock.
	mu *sync.Mutex
}

// isolate makes the log entries of w, the wave's tasks, and their
// isolated runs (wv.its).
func (wv *wave) isolate(w []*planparse.Task) {
	r := wv.r
	its := make([]*wavepkg.Task, len(w))
	now := r.o.now()
	for i, t := range w {
		lt := r.books().logTask(t)
		lt.Status, lt.Started, lt.Failure, lt.Executor = record.TaskRunning, now, "", string(r.Executor(t))
		lt.Attempts++
		its[i] = wavepkg.NewTask(t, lt, wavepkg.Dir(r.repo, r.st.RunID, string(t.ID)))
	}
	wv.its = its
}

// exec runs the wave's tasks that have no work yet (wave.Flight), each in
// its slot, recording each task done in the run's log and state under the
// wave's lock. An executor could forge planx's records (verify.Records):
// an agent, or a parallel wave's steps, runs under a mark. A wave's tasks
// run at once under one mark: planx records their gates once they have
// all ended, and a forgery, which cannot be told to one of them, fails all
// that ran.
func (wv *wave) exec(ctx context.Context) {
	r := wv.r
	// Made before the tasks start, which share them: the keeper with the
	// pool, and the files the gates reach (the judge's protected files).
	r.keeper().Reach(ctx, r.expect)
	wavepkg.Flight{Repo: r.repo, RunID: r.st.RunID, Jobs: r.o.Jobs, Tasks: wv.its, Mu: wv.mu, Fault: r.fault,
		RunTask: wv.runIsolated,
		Entry:   func(id planparse.TaskID) *execlog.Task { return r.log.TaskByID(string(id)) },
		Settle:  r.checks().Records.Settle,
		Mark: func() error {
			m, err := r.repo.Records().Mark()
			if err != nil {
				return err
			}
			r.st.RecordsMark = m
			return r.st.Save(r.repo)
		},
		Done: func(it *wavepkg.Task) error {
			r.st.WaveDone = append(r.st.WaveDone, it.T.ID)
			return r.st.Save(r.repo)
		},
		RecordGates: r.keeper().Book().RecordWaveGates,
	}.Exec(ctx)
	if msg := r.reaper.Detached(); msg != "" && len(wv.its) > 0 {
		r.warnIssue(wv.its[0].T, msg)
	}
}

// dropRunWorktrees removes the work trees of the runs that are over and
// cleans the work tree's slots (wave.DropRunWorktrees), leaving those of
// runs in progress in other work trees.
func dropRunWorktrees(repo *gitops.Repo) {
	wavepkg.DropRunWorktrees(repo, runstate.RunsElsewhere(repo))
}
