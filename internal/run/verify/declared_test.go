package verify

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// Declared reads the work tree alone: a directory stands for the work of
// the serial path and of a wave task alike.
func TestDeclared(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	gittest.WriteFile(t, root, "a.go", "package a\n")
	gittest.WriteFile(t, root, "empty.txt", "")
	gittest.WriteFile(t, root, "gone.txt", "still here\n")
	gittest.WriteFile(t, root, "docs/x.md", "x\n")
	task := func(files ...planparse.File) *planparse.Task {
		return &planparse.Task{ID: "T001", Files: files, Body: "Make empty.txt, which stays empty."}
	}
	create := func(p string) planparse.File { return planparse.File{Path: p, Action: planparse.ActionCreate} }
	for _, tc := range []struct {
		name    string
		t       *planparse.Task
		changed []string
		strict  bool
		fail    string // in the failure, "" for none
		outside []string
	}{
		{name: "nothing declared", t: task(), changed: []string{"a.go", "b.go"}},
		{name: "declared and changed", t: task(create("a.go")), changed: []string{"a.go"}},
		{name: "a directory covers its files", t: task(create("docs/")), changed: []string{"docs/x.md"}},
		{name: "outside", t: task(create("a.go")), changed: []string{"a.go", "docs/x.md"}, outside: []string{"docs/x.md"}},
		{name: "outside, strict", t: task(create("a.go")), changed: []string{"a.go", "docs/x.md"}, strict: true,
			fail: "changed 1 file outside its declared files: docs/x.md (--strict-files)"},
		{name: "missing", t: task(create("b.go")), changed: []string{"a.go"}, fail: "b.go was declared (create) but does not exist"},
		{name: "untouched", t: task(create("a.go")), changed: []string{"docs/x.md"}, fail: "a.go was declared (create) but the task did not change it"},
		{name: "not deleted", t: task(planparse.File{Path: "gone.txt", Action: planparse.ActionDelete}), changed: []string{"gone.txt"},
			fail: "gone.txt was declared deleted but still exists"},
		{name: "empty, and says so", t: task(create("empty.txt")), changed: []string{"empty.txt"}},
		{name: "empty", t: &planparse.Task{ID: "T001", Files: []planparse.File{create("empty.txt")}}, changed: []string{"empty.txt"},
			fail: "empty.txt was declared (create) but is empty"},
	} {
		outside, err := Declared(root, tc.t, tc.changed, tc.strict)
		if tc.fail == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		} else if f := outcome.As(err); f == nil || !strings.Contains(f.What, tc.fail) {
			t.Errorf("%s: err %v, want a failure saying %q", tc.name, err, tc.fail)
		}
		if strings.Join(outside, ",") != strings.Join(tc.outside, ",") {
			t.Errorf("%s: outside %v, want %v", tc.name, outside, tc.outside)
		}
	}
}
