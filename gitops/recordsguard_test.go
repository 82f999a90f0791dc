package gitops

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A record planx wrote just before the mark is not reported; one written,
// appended to or hard-linked just after it is, and only that one is removed.
func TestRecordsWrittenSinceMark(t *testing.T) {
	r, _ := newRepo(t)
	tree := SHA("0123456789012345678901234567890123456789")
	other := SHA("1123456789012345678901234567890123456789")
	if err := r.Records().AddGates(GateRecord{Tree: tree, Gate: "test", Passed: true}, GateRecord{Tree: other, Gate: "test", Passed: true}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m, err := r.Records().Mark()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("MarkRecords took %s", time.Since(start))
	if w, err := r.Records().WrittenSince(m); err != nil || len(w) != 0 {
		t.Fatalf("right after the mark: %v, %v", w, err)
	}
	// The executor's side: appends a passing record to an existing file
	// at once (no wait: the mark must already be behind the clock).
	if err := r.Records().AddGates(GateRecord{Tree: tree, Gate: "lint", Passed: true}); err != nil {
		t.Fatal(err)
	}
	w, err := r.Records().WrittenSince(m)
	want := ".git/planx/records/trees/" + string(tree)
	if err != nil || !slices.Contains(w, want) || slices.Contains(w, ".git/planx/records/trees/"+string(other)) {
		t.Fatalf("after an append: %v, %v; want %s and not the other tree", w, err, want)
	}
	// A hard link changes the inode's change time too.
	if err := os.Link(filepath.Join(r.Records().dir, "trees", string(other)), filepath.Join(r.CommonDir, "planx", "link")); err != nil {
		t.Fatal(err)
	}
	dropped, err := r.Records().DropWrittenSince(m)
	if err != nil || !slices.Contains(dropped, want) || !slices.Contains(dropped, ".git/planx/records/trees/"+string(other)) {
		t.Fatalf("dropped %v, %v", dropped, err)
	}
	if recs, err := r.Records().Gates(tree); err != nil || len(recs) != 0 {
		t.Fatalf("the written file is still read: %+v, %v", recs, err)
	}
}
