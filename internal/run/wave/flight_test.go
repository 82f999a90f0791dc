package wave

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// flightOn is a flight of chainRepo's four tasks over a fake run (turns):
// T002 was done before a crash, T003 fails in its slot, the others do
// their work.
func flightOn(t *testing.T) (*Flight, *turns) {
	repo, base, works := chainRepo(t)
	fake := &turns{write: map[planparse.TaskID]map[string]string{"T001": {"a.txt": "one\n"}, "T003": {"a.txt": "three\n"}, "T004": {"d.txt": "four\n"}},
		fail: map[planparse.TaskID]error{"T003": &outcome.Failure{What: "its gates failed"}}}
	f := &Flight{Repo: repo, Jobs: 2, Mu: &sync.Mutex{}, Log: &execlog.Log{}, State: &runstate.State{RunID: "run1"},
		Book: ledger.Book{Repo: repo, RunID: "run1", Now: time.Now}, Out: progress.New(progress.Output{}),
		Isolated: Isolated{Pool: NewPool(repo), Base: base, Runner: fake}}
	f.Settle = settle(f)
	for i, w := range works {
		f.Log.Tasks = append(f.Log.Tasks, execlog.Task{ID: string(w.ID)})
		tk := NewTask(&planparse.Task{ID: w.ID}, &execlog.Task{ID: string(w.ID), Status: "running",
			Gates: []execlog.Gate{{Name: "test", Passed: true}}}, Dir(repo, "run1", string(w.ID)))
		if i == 1 {
			tk.Work = w.Commit
		}
		f.Tasks = append(f.Tasks, tk)
	}
	return f, fake
}

// settle is the serial path's guard of planx's records
// (verify.Records.Settle) in small: what was written since the state's
// mark is removed and said, and the mark cleared, saved.
func settle(f *Flight) func() (string, error) {
	return func() (string, error) {
		m := f.State.RecordsMark
		if m == 0 {
			return "", nil
		}
		written, err := records.Of(f.Repo).WrittenSince(m)
		if err != nil {
			return "", err
		}
		if len(written) > 0 {
			if _, err := records.Of(f.Repo).DropWrittenSince(m); err != nil {
				return "", err
			}
		}
		f.State.RecordsMark = 0
		if err := f.State.Save(f.Repo); err != nil || len(written) == 0 {
			return "", err
		}
		return "wrote planx's records (" + strings.Join(written, ", ") + ")", nil
	}
}

func TestFlightRecordsEachTaskDoneAndSkipsWorkDoneBefore(t *testing.T) {
	t.Parallel()
	f, fake := flightOn(t)
	ctx := context.Background()
	f.Exec(ctx)
	// The tasks done are saved in the run's state; no mark is left set.
	st, err := runstate.Load(f.Repo)
	if err != nil || st == nil {
		t.Fatalf("the run's state: %v, %v", st, err)
	}
	if slices.Sort(st.WaveDone); !slices.Equal(st.WaveDone, []planparse.TaskID{"T001", "T004"}) || st.RecordsMark != 0 {
		t.Errorf("saved: done %v, mark %d; want T001 and T004, no mark", st.WaveDone, st.RecordsMark)
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
		recs, err := records.Of(f.Repo).Gates(tree)
		if want := i == 0 || i == 3; err != nil || (len(recs) == 1) != want {
			t.Errorf("%s's gates recorded: %+v, %v; want recorded %v", tk.T.ID, recs, err, want)
		}
	}
	for i, tk := range f.Tasks {
		if tk.Log != &f.Log.Tasks[i] {
			t.Errorf("%s's Log is not the run's entry", tk.T.ID)
		}
		if tk.Log.Status != "running" {
			t.Errorf("%s's entry was not taken from its own copy: %+v", tk.T.ID, tk.Log)
		}
	}
	if _, ran := fake.in["T002"]; ran || len(fake.in) != 3 {
		t.Errorf("turns ran in %v; want T001, T003 and T004: T002 was done before the crash", fake.in)
	}
	if want := []string{"a.txt"}; !slices.Equal(f.Tasks[0].Log.Files, want) {
		t.Errorf("T001's entry lists %v, want %v", f.Tasks[0].Log.Files, want)
	}
	if _, err := os.Stat(filepath.Join(f.Tasks[2].Dir, "a.txt")); err != nil {
		t.Errorf("T003's work tree is not kept at %s: %v", f.Tasks[2].Dir, err)
	}
	sha, err := f.Repo.Refs().Resolve(ctx, WorkRef("run1", "T001"))
	if err != nil || sha != f.Tasks[0].Work {
		t.Errorf("T001's work ref = %s, %v; want %s", sha, err, f.Tasks[0].Work)
	}
}

func TestFlightForgeryFailsEveryTaskNotFailed(t *testing.T) {
	t.Parallel()
	f, fake := flightOn(t)
	// T004's executor writes a record of planx's while the wave runs.
	fake.forge, fake.repo = "T004", f.Repo
	f.Exec(context.Background())
	for _, tk := range f.Tasks {
		if tk.Fail == nil {
			t.Errorf("%s did not fail", tk.T.ID)
			continue
		}
		if want := tk.T.ID != "T003"; want != strings.Contains(tk.Fail.What, "which one cannot be told) wrote planx's records") {
			t.Errorf("%s's failure: %s", tk.T.ID, tk.Fail.What)
		}
	}
	// The forged record is gone, and so is the mark.
	if recs, err := records.Of(f.Repo).Gates(f.Isolated.Base); err != nil || len(recs) != 0 || f.State.RecordsMark != 0 {
		t.Errorf("after the forgery: records %+v (%v), mark %d", recs, err, f.State.RecordsMark)
	}
}
