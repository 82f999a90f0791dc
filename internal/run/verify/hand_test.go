package verify

import (
	"slices"
	"testing"

	"github.com/planx-dev/planx/planparse"
)

// Which of a person's edits after a stop go into the task's commit,
// decided from literal paths.
func TestBelongs(t *testing.T) {
	declared := []planparse.File{{Path: "a.txt"}, {Path: "docs/"}}
	for _, c := range []struct {
		name      string
		e         HandEdits
		own, rest []string
	}{
		{"nothing edited", HandEdits{Attempt: []string{"a.txt"}, Declared: declared}, nil, nil},
		{"a fix of the attempt's file belongs", HandEdits{Attempt: []string{"x.go"}, Edited: []string{"x.go"}}, []string{"x.go"}, nil},
		{"a file under a directory the attempt wrote belongs", HandEdits{Attempt: []string{"gen"}, Edited: []string{"gen/y.go"}}, []string{"gen/y.go"}, nil},
		{"a declared file belongs", HandEdits{Declared: declared, Edited: []string{"a.txt"}}, []string{"a.txt"}, nil},
		{"a file under a declared directory belongs", HandEdits{Declared: declared, Edited: []string{"docs/x.md"}}, []string{"docs/x.md"}, nil},
		{"a staged new file belongs", HandEdits{Edited: []string{"new.txt"}, Staged: []string{"new.txt"}}, []string{"new.txt"}, nil},
		{"an unrelated edit stays apart", HandEdits{Attempt: []string{"a.txt"}, Declared: declared, Edited: []string{"notes.txt", "a.txt", "hand.txt"}},
			[]string{"a.txt"}, []string{"hand.txt", "notes.txt"}},
		{"a path that only starts like the attempt's stays apart", HandEdits{Attempt: []string{"gen"}, Edited: []string{"generated.go"}}, nil, []string{"generated.go"}},
		{"staged elsewhere does not make it belong", HandEdits{Edited: []string{"b.txt"}, Staged: []string{"c.txt"}}, nil, []string{"b.txt"}},
		{"after a refused commit every edit is the commit's fix", HandEdits{Edited: []string{"ALLOW", "CHANGELOG"}, AtCommit: true},
			[]string{"ALLOW", "CHANGELOG"}, nil},
	} {
		own, rest := Belongs(c.e)
		if !slices.Equal(own, c.own) || !slices.Equal(rest, c.rest) {
			t.Errorf("%s: own %q apart %q, want %q and %q", c.name, own, rest, c.own, c.rest)
		}
	}
}

// What is left of a person's edits for the next task: the ones a commit
// left apart, found at the same tree.
func TestHandLeft(t *testing.T) {
	h := Hand{Edited: []string{"a", "b"}, Staged: []string{"a"}, Attempt: []string{"a"}, Resumed: true, At: "abc", AtCommit: true}
	if got := h.Left(nil); got.Any() {
		t.Errorf("nothing apart: %+v, want nothing left", got)
	}
	got := h.Left([]string{"b"})
	if !slices.Equal(got.Edited, []string{"b"}) || got.At != "abc" || got.Resumed || got.AtCommit || got.Staged != nil || got.Attempt != nil {
		t.Errorf("b apart: %+v, want only b at abc", got)
	}
}
