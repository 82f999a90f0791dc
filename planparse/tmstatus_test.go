package planparse

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestTickTaskMaster: ticking a tasks.json task replaces its status value
// with "done" and nothing else, subtasks included, in any order (a longer
// or shorter value moves every later task), and leaves every task's hash
// as it was.
func TestTickTaskMaster(t *testing.T) {
	src, err := os.ReadFile("testdata/taskmaster/tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "tasks.json", string(src), Options{})
	hashes := map[TaskID]string{}
	for _, tk := range p.Tasks {
		hashes[tk.ID] = tk.Hash()
	}
	byLabel := func(l string) *Task {
		for _, tk := range p.Tasks {
			if tk.Label == l {
				return tk
			}
		}
		t.Fatalf("no task %s", l)
		return nil
	}
	// 2.1 first: its offsets are stale once 1.2 (earlier in the file) is ticked.
	cur := src
	for _, l := range []string{"1.2", "2", "2.1"} {
		out, ok := Tick(cur, byLabel(l))
		if !ok {
			t.Fatalf("Tick %s refused", l)
		}
		cur = out
	}
	want := strings.Replace(string(src), `{"id": 2, "title": "Add CI", "dependencies": [1], "status": "pending"}`,
		`{"id": 2, "title": "Add CI", "dependencies": [1], "status": "done"}`, 1)
	want = strings.Replace(want, `"status": "in-progress"`, `"status": "done"`, 1)
	want = strings.Replace(want, `"dependencies": ["1.2"], "status": "pending"`, `"dependencies": ["1.2"], "status": "done"`, 1)
	if string(cur) != want {
		t.Fatalf("ticked file:\n%s\nwant:\n%s", cur, want)
	}
	if bytes.Equal(cur, src) {
		t.Fatal("Tick modified its input in place")
	}
	after := mustParse(t, "tasks.json", string(cur), Options{})
	for _, tk := range after.Tasks {
		if tk.Status != StatusDone {
			t.Errorf("%s (%s) is %s after ticking", tk.ID, tk.Label, tk.Status)
		}
		if tk.Hash() != hashes[tk.ID] {
			t.Errorf("%s: hash changed by the tick", tk.ID)
		}
	}
	if out, ok := Tick(cur, after.Tasks[0]); ok || !bytes.Equal(out, cur) {
		t.Error("ticking a done task changed the file")
	}
	// What the task asks still counts: a changed title is drift.
	edited := mustParse(t, "tasks.json", strings.Replace(string(cur), "PDF writer", "PNG writer", 1), Options{})
	if edited.Tasks[4].Hash() == hashes[edited.Tasks[4].ID] {
		t.Error("a changed title kept the hash")
	}
}

// TestTickTaskMasterWithoutStatus: a task with no status member is left
// alone (nothing to set without adding bytes of planx's own choosing).
func TestTickTaskMasterWithoutStatus(t *testing.T) {
	src := `{"tasks": [{"id": 1, "title": "A"}, {"id": 2, "title": "B", "status": "pen\"ding"}]}`
	p := mustParse(t, "tasks.json", src, Options{})
	if out, ok := Tick([]byte(src), p.Tasks[0]); ok || string(out) != src {
		t.Errorf("task without status: ok=%v %s", ok, out)
	}
	out, ok := Tick([]byte(src), p.Tasks[1])
	if want := `{"tasks": [{"id": 1, "title": "A"}, {"id": 2, "title": "B", "status": "done"}]}`; !ok || string(out) != want {
		t.Errorf("escaped status: ok=%v %s", ok, out)
	}
}

func TestDisplayID(t *testing.T) {
	for _, c := range []struct{ id, label, want string }{
		{"T002", "1.1", "1.1 (T002)"},
		{"T003", "T003", "T003"},
		{"T004", "", "T004"},
		{"T001", "Task 3", "Task 3 (T001)"},
	} {
		if got := DisplayID(TaskID(c.id), c.label); got != c.want {
			t.Errorf("DisplayID(%s, %q) = %q, want %q", c.id, c.label, got, c.want)
		}
	}
}

// TestHashMatchesOlderTaskMasterHash: a tasks.json task committed by a
// planx that hashed its status value too is the same text now, while a
// changed title is not; a markdown task has one hash only.
func TestHashMatchesOlderTaskMasterHash(t *testing.T) {
	src, err := os.ReadFile("testdata/taskmaster/tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "tasks.json", string(src), Options{})
	tk := p.Tasks[0]
	if !tk.HashMatches("sha256:"+tk.Hash()) || !tk.HashMatches("sha256:"+hashText(tk.Body)) {
		t.Fatalf("%s does not match its own hashes", tk.ID)
	}
	if tk.Hash() == hashText(tk.Body) {
		t.Fatalf("the fixture's first task has no status to leave out")
	}
	edited := *tk
	edited.Body = strings.Replace(tk.Body, tk.Title, tk.Title+" and more", 1)
	if edited.HashMatches("sha256:"+tk.Hash()) || edited.HashMatches("sha256:"+hashText(tk.Body)) {
		t.Errorf("a changed title matches the old hashes")
	}
	md := mustParse(t, "plan.md", "### T001: A\n\nbody `\"status\": \"x\"`\n", Options{})
	if m := md.Tasks[0]; m.HashMatches("sha256:"+hashText(jsonHashText(m.Body))) && jsonHashText(m.Body) != m.Body {
		t.Errorf("a markdown task matches a hash with its text blanked")
	}
}
