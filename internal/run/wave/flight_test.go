package wave

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// flightOn is a flight of chainRepo's four tasks over a fake run: T002 was
// done before a crash, T003 fails in its slot, the others do their work.
func flightOn(t *testing.T) (*Flight, *execlog.Log, *[]planparse.TaskID) {
	repo, _, works := chainRepo(t)
	log := &execlog.Log{}
	var done []planparse.TaskID
	f := &Flight{Repo: repo, RunID: "run1", Jobs: 2, Mu: &sync.Mutex{}, Log: log,
		Book:   ledger.Book{Repo: repo, RunID: "run1", Now: time.Now},
		Settle: func() (string, error) { return "", nil },
		Mark:   func() error { return nil },
		Done:   func(tk *Task) error { done = append(done, tk.T.ID); return nil },
	}
	for i, w := range works {
		log.Tasks = append(log.Tasks, execlog.Task{ID: string(w.ID)})
		tk := &Task{T: &planparse.Task{ID: w.ID}, Own: execlog.Task{ID: string(w.ID), Status: "running",
			Gates: []execlog.Gate{{Name: "test", Passed: true}}}}
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
	f, log, done := flightOn(t)
	ctx := context.Background()
	f.Exec(ctx)
	if slices.Sort(*done); !slices.Equal(*done, []planparse.TaskID{"T001", "T004"}) {
		t.Errorf("done %v, want T001 and T004", *done)
	}
	// The gates of the tasks that ran and passed are recorded on their
	// work; T002's were before the crash, T003 failed.
	for i, tk := range f.Tasks {
		if tk.Work == "" {
			continue // T003, failed: no work to record anything on
		}
		tree, err := f.Repo.Objects().TreeOf(ctx, tk.Work)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := f.Repo.Records().Gates(tree)
		if want := i == 0 || i == 3; err != nil || (len(recs) == 1) != want {
			t.Errorf("%s's gates recorded: %+v, %v; want recorded %v", tk.T.ID, recs, err, want)
		}
	}
	for i, tk := range f.Tasks {
		if tk.Log != &log.Tasks[i] {
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
