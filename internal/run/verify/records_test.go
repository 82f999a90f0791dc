package verify

import (
	"testing"

	"github.com/planx-dev/planx/gitops"
)

// A record written under the mark fails the task and the mark is cleared
// and saved; without one the records are left alone.
func TestRecords(t *testing.T) {
	t.Parallel()
	w, _ := workIn(t, map[string]string{"a.txt": "a\n"})
	var mark gitops.RecordsMark
	saves := 0
	g := NewRecords(w.Repo, &mark, func() error { saves++; return nil })
	if err := g.Mark(w.Task); err != nil || mark == 0 {
		t.Fatalf("mark %d: %v", mark, err)
	}
	if err := g.Untouched(w.Task); err != nil || mark != 0 || saves != 1 {
		t.Fatalf("nothing written: %v, mark %d, %d saves", err, mark, saves)
	}
	if err := g.Mark(w.Task); err != nil {
		t.Fatal(err)
	}
	tree := gitops.SHA("0123456789012345678901234567890123456789")
	if err := w.Repo.Records().AddGates(gitops.GateRecord{Tree: tree, Gate: "test", Passed: true}); err != nil {
		t.Fatal(err)
	}
	failureSays(t, g.Untouched(w.Task), "planx removed the files written: .git/planx/records/trees/"+string(tree))
	if recs, err := w.Repo.Records().Gates(tree); err != nil || len(recs) != 0 || mark != 0 {
		t.Errorf("after the check: records %+v (%v), mark %d", recs, err, mark)
	}
	// Forget clears a mark without looking.
	if err := g.Mark(w.Task); err != nil {
		t.Fatal(err)
	}
	if err := w.Repo.Records().AddGates(gitops.GateRecord{Tree: tree, Gate: "test", Passed: true}); err != nil {
		t.Fatal(err)
	}
	if err := g.Forget(); err != nil || mark != 0 {
		t.Errorf("forget: %v, mark %d", err, mark)
	}
	if what, err := g.Settle(); err != nil || what != "" {
		t.Errorf("after forget: %q, %v", what, err)
	}
}
