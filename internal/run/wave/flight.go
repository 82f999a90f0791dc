package wave

import (
	"context"
	"sync"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/outcome"
)

// Flight runs a wave's tasks that have no work yet, at most Jobs at once
// (Workers), each in its slot (RunTask). Each worker writes only its
// task's own log entry (a copy): the run's log takes it, under Mu, when
// the task is done, and a task done is recorded (a ref to its work, and
// the run's state) before the next one ends, so that a crash does not lose
// it. The run's log, state and records guard come in as funcs run under Mu.
type Flight struct {
	Repo  *gitops.Repo
	RunID string
	Jobs  int
	Tasks []*Task // in plan order; those with Work were done before a crash
	Mu    *sync.Mutex
	Fault fault.Hook
	Log   *execlog.Log // the run's log, whose entries take the tasks' own
	Book  ledger.Book  // records the gates each task passed on its work

	// RunTask runs t in a slot of its own, setting its Work, Fail or Err.
	RunTask func(ctx context.Context, t *Task)
	// Settle settles the mark of the executors that ran (or that a
	// stopped wave left) and says what they forged, "" when nothing; Mark
	// sets a new mark, saved with the run's state, for the executors
	// about to run.
	Settle func() (string, error)
	Mark   func() error
	// Done records t's work done in the run's state, saved.
	Done func(t *Task) error
}

// Exec runs the wave's tasks and leaves each task's Log at the run's log
// entry.
func (f Flight) Exec(ctx context.Context) {
	// Tasks done before a crash (recovered by resume) go into the log
	// before any worker starts: a worker's finished writes the log and
	// saves the state, so nothing else may touch them once one runs.
	ran := map[*Task]bool{}
	var todo []int
	for i, t := range f.Tasks {
		if t.Work != "" {
			*f.entry(t) = t.Own
		} else {
			ran[t] = true
			todo = append(todo, i)
		}
	}
	if err := f.records(len(ran) > 0); err != nil {
		for _, t := range f.Tasks {
			t.Err = err
		}
		return
	}
	Workers(ctx, f.Jobs, todo, f.Mu,
		func(ctx context.Context, i int) { f.RunTask(ctx, f.Tasks[i]) },
		func(ctx context.Context, i int) { f.finished(ctx, f.Tasks[i]) })
	if err := f.records(false); err != nil {
		for _, t := range f.Tasks {
			t.Err = err
		}
	}
	for _, t := range f.Tasks {
		t.Log = f.entry(t)
		// The task's own gates passed on its work: the base plus its
		// changes. Recorded now that no executor runs.
		if ran[t] && t.Work != "" && t.Fail == nil && t.Err == nil {
			f.Book.RecordWaveGates(ctx, t.T, t.Work, t.Own.Gates)
		}
	}
	f.Fault.At("after-wave")
}

// finished records one task of the wave done in its work tree. The caller
// holds Mu.
func (f Flight) finished(ctx context.Context, t *Task) {
	*f.entry(t) = t.Own
	if t.Work == "" || t.Err != nil || t.Fail != nil {
		return
	}
	if err := f.Repo.Refs().Update(ctx, WorkRef(f.RunID, t.T.ID), t.Work, "", "planx: work of "+string(t.T.ID)); err != nil {
		t.Err = err
		return
	}
	if err := f.Done(t); err != nil {
		t.Err = err
		return
	}
	f.Fault.At("after-wave-task")
}

// records settles the mark of the wave's executors and, when run is true,
// sets a new one for the executors about to run. A forgery fails every
// task of the wave that has not failed: the executors ran at once, so
// which one wrote cannot be told.
func (f Flight) records(run bool) error {
	what, err := f.Settle()
	if err != nil {
		return err
	}
	if what != "" {
		for _, t := range f.Tasks {
			if t.Fail == nil && t.Err == nil {
				t.Fail = &outcome.Failure{What: "a task of its parallel wave (they ran at once: which one cannot be told) " + what}
			}
		}
	}
	if !run {
		return nil
	}
	return f.Mark()
}

// entry is t's entry in the run's log.
func (f Flight) entry(t *Task) *execlog.Task { return f.Log.TaskByID(string(t.T.ID)) }
