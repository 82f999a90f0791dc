package verify

import (
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// A record written under the mark fails the task and the mark is cleared
// and saved in the run state; without one the records are left alone.
func TestRecords(t *testing.T) {
	t.Parallel()
	w, _ := workIn(t, map[string]string{"a.txt": "a\n"})
	st := &runstate.State{RunID: "r1"}
	g := NewRecords(w.Repo, st)
	// savedMark is the mark the run state on disk holds.
	savedMark := func() records.Mark {
		t.Helper()
		on, err := runstate.Load(w.Repo)
		if err != nil || on == nil {
			t.Fatalf("load the run state: %v, %v", on, err)
		}
		return on.RecordsMark
	}
	mark := func() {
		t.Helper()
		if err := g.Mark(w.Task); err != nil || st.RecordsMark == 0 {
			t.Fatalf("mark %d: %v", st.RecordsMark, err)
		}
		if err := st.Save(w.Repo); err != nil { // the caller's save, before the executor
			t.Fatal(err)
		}
	}
	mark()
	if err := g.Untouched(w.Task); err != nil || st.RecordsMark != 0 || savedMark() != 0 {
		t.Fatalf("nothing written: %v, mark %d, saved %d", err, st.RecordsMark, savedMark())
	}
	mark()
	tree := gitops.SHA("0123456789012345678901234567890123456789")
	if err := records.Of(w.Repo).AddGates(records.GateRecord{Tree: tree, Gate: "test", Passed: true}); err != nil {
		t.Fatal(err)
	}
	failureSays(t, g.Untouched(w.Task), "planx removed the files written: .git/planx/records/trees/"+string(tree))
	if recs, err := records.Of(w.Repo).Gates(tree); err != nil || len(recs) != 0 || st.RecordsMark != 0 || savedMark() != 0 {
		t.Errorf("after the check: records %+v (%v), mark %d, saved %d", recs, err, st.RecordsMark, savedMark())
	}
	// Forget clears a mark without looking.
	mark()
	if err := records.Of(w.Repo).AddGates(records.GateRecord{Tree: tree, Gate: "test", Passed: true}); err != nil {
		t.Fatal(err)
	}
	if err := g.Forget(); err != nil || st.RecordsMark != 0 || savedMark() != 0 {
		t.Errorf("forget: %v, mark %d, saved %d", err, st.RecordsMark, savedMark())
	}
	if what, err := g.Settle(); err != nil || what != "" {
		t.Errorf("after forget: %q, %v", what, err)
	}
}

// Without a run state (a wave's slot) nothing is marked or settled: the
// wave guards the records for all its tasks.
func TestRecordsWithoutState(t *testing.T) {
	w, _ := workIn(t, map[string]string{"a.txt": "a\n"})
	g := NewRecords(w.Repo, nil)
	if err := g.Mark(w.Task); err != nil {
		t.Fatal(err)
	}
	if err := records.Of(w.Repo).AddGates(records.GateRecord{Tree: "0123456789012345678901234567890123456789", Gate: "test", Passed: true}); err != nil {
		t.Fatal(err)
	}
	if err := g.Untouched(w.Task); err != nil {
		t.Errorf("untouched: %v", err)
	}
	if err := g.Forget(); err != nil {
		t.Errorf("forget: %v", err)
	}
	if st, err := runstate.Load(w.Repo); st != nil || err != nil {
		t.Errorf("a run state was saved: %+v, %v", st, err)
	}
}
