package wave

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// flightOn is a flight of chainRepo's four tasks over a fake run: T002 was
// done before a crash, T003 fails in its slot, the others do their work.
func flightOn(t *testing.T) (*Flight, map[planparse.TaskID]*execlog.Task, *[]planparse.TaskID) {
	repo, _, works := chainRepo(t)
	log := map[planparse.TaskID]*execlog.Task{}
	var done []planparse.TaskID
	f := &Flight{Repo: repo, RunID: "run1", Jobs: 2, Mu: &sync.Mutex{},
		Entry:       func(id planparse.TaskID) *execlog.Task { return log[id] },
		Settle:      func() (string, error) { return "", nil },
		Mark:        func() error { return nil },
		Done:        func(tk *Task) error { done = append(done, tk.T.ID); return nil },
		RecordGates: func(context.Context, *planparse.Task, gitops.SHA, []execlog.Gate) {},
	}
	for i, w := range works {
		log[w.ID] = &execlog.Task{ID: string(w.ID)}
		tk := &Task{T: &planparse.Task{ID: w.ID}, Own: execlog.Task{ID: string(w.ID), Status: "running"}}
		if i == 1 {
			tk.Work = w.Commit
		}
		f.Tasks = append(f.Tasks, tk)
	}
	f.RunTask = func(_ context.Context, tk *Task) {
		tk.Own.Attempts++
		if tk.T.ID == "T003" {
			tk.Fail = &outcome.Failure{What: "its gates failed"}
			return
		}
		tk.Work = works[slices.IndexFunc(works, func(w Work) bool { return w.ID == tk.T.ID })].Commit
	}
	return f, log, &done
}

func TestFlightRecordsEachTaskDoneAndSkipsWorkDoneBefore(t *testing.T) {
	t.Parallel()
	f, log, done := flightOn(t)
	var recorded []string
	f.RecordGates = func(_ context.Context, tk *planparse.Task, _ gitops.SHA, _ []execlog.Gate) {
		recorded = append(recorded, string(tk.ID))
	}
	ctx := context.Background()
	f.Exec(ctx)
	if slices.Sort(*done); !slices.Equal(*done, []planparse.TaskID{"T001", "T004"}) {
		t.Errorf("done %v, want T001 and T004", *done)
	}
	if len(recorded) != 2 {
		t.Errorf("gates recorded for %v, want T001 and T004", recorded)
	}
	for _, tk := range f.Tasks {
		if tk.Log != log[tk.T.ID] {
			t.Errorf("%s's Log is not the run's entry", tk.T.ID)
		}
		if tk.Log.Status != "running" {
			t.Errorf("%s's entry was not taken from its own copy: %+v", tk.T.ID, tk.Log)
		}
	}
	if f.Tasks[1].Own.Attempts != 0 {
		t.Error("T002, done before the crash, ran again")
	}
	sha, err := f.Repo.Refs().Resolve(ctx, WorkRef("run1", "T001"))
	if err != nil || sha != f.Tasks[0].Work {
		t.Errorf("T001's work ref = %s, %v; want %s", sha, err, f.Tasks[0].Work)
	}
}

func TestFlightForgeryFailsEveryTaskNotFailed(t *testing.T) {
	t.Parallel()
	f, _, _ := flightOn(t)
	calls := 0
	f.Settle = func() (string, error) {
		calls++
		if calls == 2 {
			return "wrote planx's records", nil
		}
		return "", nil
	}
	f.Exec(context.Background())
	for _, tk := range f.Tasks {
		if tk.Fail == nil {
			t.Errorf("%s did not fail", tk.T.ID)
			continue
		}
		if want := tk.T.ID != "T003"; want != strings.Contains(tk.Fail.What, "which one cannot be told") {
			t.Errorf("%s's failure: %s", tk.T.ID, tk.Fail.What)
		}
	}
}
