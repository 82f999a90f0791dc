package records

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// A record planx wrote just before the mark is not reported; one written,
// appended to or hard-linked just after it is, and only that one is removed.
func TestRecordsWrittenSinceMark(t *testing.T) {
	t.Parallel()
	r, _ := newRepo(t)
	tree := gitops.SHA("0123456789012345678901234567890123456789")
	other := gitops.SHA("1123456789012345678901234567890123456789")
	if err := Of(r).AddGates(GateRecord{Tree: tree, Gate: "test", Passed: true}, GateRecord{Tree: other, Gate: "test", Passed: true}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m, err := Of(r).Mark()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("MarkRecords took %s", time.Since(start))
	if w, err := Of(r).WrittenSince(m); err != nil || len(w) != 0 {
		t.Fatalf("right after the mark: %v, %v", w, err)
	}
	// The executor's side: appends a passing record to an existing file
	// at once (no wait: the mark must already be behind the clock).
	if err := Of(r).AddGates(GateRecord{Tree: tree, Gate: "lint", Passed: true}); err != nil {
		t.Fatal(err)
	}
	w, err := Of(r).WrittenSince(m)
	want := ".git/planx/records/trees/" + string(tree)
	if err != nil || !slices.Contains(w, want) || slices.Contains(w, ".git/planx/records/trees/"+string(other)) {
		t.Fatalf("after an append: %v, %v; want %s and not the other tree", w, err, want)
	}
	// A hard link changes the inode's change time too.
	if err := os.Link(filepath.Join(Of(r).dir, "trees", string(other)), filepath.Join(r.CommonDir, "planx", "link")); err != nil {
		t.Fatal(err)
	}
	dropped, err := Of(r).DropWrittenSince(m)
	if err != nil || !slices.Contains(dropped, want) || !slices.Contains(dropped, ".git/planx/records/trees/"+string(other)) {
		t.Fatalf("dropped %v, %v", dropped, err)
	}
	if recs, err := Of(r).Gates(tree); err != nil || len(recs) != 0 {
		t.Fatalf("the written file is still read: %+v, %v", recs, err)
	}
}

// Each work tree writes and guards its own records and reads every work
// tree's: a run in a linked work tree writing its records while a task
// runs in the main one is not that task's forgery, and is not removed.
func TestRecordsPerWorktree(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.Commit(t, dir, "base")
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	w, err := gitops.Open(context.Background(), wt)
	if err != nil {
		t.Fatal(err)
	}
	tree := gitops.SHA("0123456789012345678901234567890123456789")
	m, err := Of(r).Mark()
	if err != nil {
		t.Fatal(err)
	}
	if err := Of(w).AddGates(GateRecord{Tree: tree, Gate: "test", Passed: true}); err != nil {
		t.Fatal(err)
	}
	if err := Of(w).AddMade("run-1", MadeCommit{Task: "T001", Commit: tree}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "planx", "records-linked", "wt", "trees", string(tree))); err != nil {
		t.Fatalf("the linked work tree's record is not its own: %v", err)
	}
	if written, err := Of(r).DropWrittenSince(m); err != nil || len(written) != 0 {
		t.Fatalf("the main work tree's guard took the linked one's records: %v, %v", written, err)
	}
	for _, rs := range []Store{Of(r), Of(w)} {
		if recs, err := rs.Gates(tree); err != nil || len(recs) != 1 {
			t.Errorf("gates of %s: %+v, %v; want the linked work tree's one", rs.dir, recs, err)
		}
		if made, err := rs.Made("run-1"); err != nil || !made.Known || made.Commits["T001"].Commit != tree {
			t.Errorf("made of %s: %+v, %v", rs.dir, made, err)
		}
	}
	wm, err := Of(w).Mark()
	if err != nil {
		t.Fatal(err)
	}
	if err := Of(w).AddGates(GateRecord{Tree: tree, Gate: "lint", Passed: true}); err != nil {
		t.Fatal(err)
	}
	if written, err := Of(w).WrittenSince(wm); err != nil || !slices.Contains(written, ".git/planx/records-linked/wt/trees/"+string(tree)) {
		t.Errorf("the linked work tree's guard: %v, %v", written, err)
	}
}
