package wave

import (
	"context"
	"sync"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// Flight runs a wave's tasks that have no work yet, at most Jobs at once
// (Workers), each in its slot (Isolated). Each worker writes only its
// task's own log entry (a copy): the run's log takes it, under Mu, when
// the task is done, and a task done is recorded (a ref to its work, and
// the run's state) before the next one ends, so that a crash does not lose
// it. The run's log and state are the run's values, written under Mu.
type Flight struct {
	Repo  *gitops.Repo
	Jobs  int
	Tasks []*Task // in plan order; those with Work were done before a crash
	Mu    *sync.Mutex
	Fault fault.Hook
	Log   *execlog.Log // the run's log, whose entries take the tasks' own
	// State is the run's: the tasks of the wave done (WaveDone) and the
	// mark of planx's records the wave's executors run under, saved.
	State *runstate.State
	// Settle settles the mark of the executors that ran (or that a
	// stopped wave left), clearing it in State, saved, and says what they
	// forged, "" when nothing: the serial path's guard of planx's records
	// (verify.Records.Settle), which package wave may not import (taskgate
	// imports wave, and must never reach verify).
	Settle func() (string, error)
	Book   ledger.Book // records the gates each task passed on its work
	// Isolated is how each task runs, in a slot of its own (its Task is
	// set for each); its lines of progress go to Out.
	Isolated Isolated
	Out      *progress.Progress
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
		if t.Work != "" || t.Fail != nil {
			// Done before a crash, or failed before the wave flew (a CI
			// task job that published no work): not run here.
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
		func(ctx context.Context, i int) { f.run(ctx, f.Tasks[i]) },
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

// run runs t in a slot of its own, setting its Work, Fail or Err, and the
// files it changed in its own log entry.
func (f Flight) run(ctx context.Context, t *Task) {
	f.Out.Phase(t.T.ID, "preparing its slot")
	o := f.Isolated
	o.Task = t
	ran := o.Run(ctx)
	if ran.Listed {
		t.Log.Files = ran.Files
	}
	t.Work, t.Fail, t.Err = ran.Work, ran.Fail, ran.Err
	// Its line stays until the wave has landed: a task done in its slot
	// is not committed yet, and the wave's lines keep their places.
	switch {
	case ran.Err != nil:
		f.Out.Phase(t.T.ID, "stopped")
	case ran.Fail != nil:
		f.Out.Phase(t.T.ID, "failed: said when the wave has landed")
	default:
		f.Out.Phase(t.T.ID, "waiting to land")
	}
}

// finished records one task of the wave done in its work tree. The caller
// holds Mu.
func (f Flight) finished(ctx context.Context, t *Task) {
	*f.entry(t) = t.Own
	if t.Work == "" || t.Err != nil || t.Fail != nil {
		return
	}
	if err := f.Repo.Refs().Update(ctx, WorkRef(f.State.RunID, t.T.ID), t.Work, "", "planx: work of "+string(t.T.ID)); err != nil {
		t.Err = err
		return
	}
	f.State.WaveDone = append(f.State.WaveDone, t.T.ID)
	if err := f.State.Save(f.Repo); err != nil {
		t.Err = err
		return
	}
	f.Fault.At("after-wave-task")
}

// records settles the mark of the wave's executors and, when run is true,
// sets a new one for the executors about to run. A forgery fails every
// task of the wave that has not failed: the executors ran at once, so
// which one wrote cannot be told. The mark is the run state's, saved with
// it.
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
	m, err := records.Of(f.Repo).Mark()
	if err != nil {
		return err
	}
	f.State.RecordsMark = m
	return f.State.Save(f.Repo)
}

// entry is t's entry in the run's log.
func (f Flight) entry(t *Task) *execlog.Task { return f.Log.TaskByID(string(t.T.ID)) }
