package planparse

import (
	"strings"
	"testing"
)

func waveIDs(ws [][]*Task) string {
	var parts []string
	for _, w := range ws {
		var ids []string
		for _, t := range w {
			ids = append(ids, string(t.ID))
		}
		parts = append(parts, strings.Join(ids, ","))
	}
	return strings.Join(parts, " | ")
}

func TestWavesSpecKit(t *testing.T) {
	src := `# Tasks: demo

## Phase 1: Setup

- [ ] T001 Create project structure in src/
- [ ] T002 [P] Add model in src/models/user.py
- [ ] T003 [P] Add model in src/models/order.py
- [ ] T004 [P] Add service in src/models/user.py
- [ ] T005 Wire everything in src/app.py
- [ ] T006 [P] Docs in docs/a.md
- [ ] T007 [P] Docs in docs/b.md
`
	p, err := Parse("tasks.md", []byte(src), Options{Format: FormatSpecKit})
	if err != nil {
		t.Fatal(err)
	}
	if p.Task("T002").Files == nil || !p.Task("T002").Parallel || p.Task("T001").Parallel {
		t.Fatalf("parser did not give the markers and files the test relies on: %+v", p.Task("T002"))
	}
	// T004 declares the file T002 declares: it starts a new wave.
	got := waveIDs(Waves(p.Order(), nil))
	want := "T001 | T002,T003 | T004 | T005 | T006,T007"
	if got != want {
		t.Fatalf("waves = %q, want %q", got, want)
	}
}

func TestWavesRules(t *testing.T) {
	mk := func(id string, par bool, deps []TaskID, files ...string) *Task {
		tk := &Task{ID: TaskID(id), Parallel: par, DependsOn: deps}
		for _, f := range files {
			tk.Files = append(tk.Files, File{Path: f, Action: ActionCreate})
		}
		return tk
	}
	cases := []struct {
		name  string
		tasks []*Task
		safe  func(*Task) bool
		want  string
	}{
		{"all parallel, disjoint", []*Task{mk("T001", true, nil, "a"), mk("T002", true, nil, "b"), mk("T003", true, nil, "c")}, nil, "T001,T002,T003"},
		{"dependency closes the wave", []*Task{mk("T001", true, nil, "a"), mk("T002", true, []TaskID{"T001"}, "b"), mk("T003", true, nil, "c")}, nil, "T001 | T002,T003"},
		{"directory overlaps a file under it", []*Task{mk("T001", true, nil, "src/"), mk("T002", true, nil, "src/x.go")}, nil, "T001 | T002"},
		{"prefix that is not a directory does not overlap", []*Task{mk("T001", true, nil, "src/a"), mk("T002", true, nil, "src/ab")}, nil, "T001,T002"},
		{"serial task alone", []*Task{mk("T001", true, nil, "a"), mk("T002", false, nil, "b"), mk("T003", true, nil, "c")}, nil, "T001 | T002 | T003"},
		{"no files: marker suffices", []*Task{mk("T001", true, nil), mk("T002", true, nil)}, nil, "T001,T002"},
		{"safe predicate vetoes", []*Task{mk("T001", true, nil, "a"), mk("T002", true, nil, "b")}, func(t *Task) bool { return t.ID != "T002" }, "T001 | T002"},
		{"empty", nil, nil, ""},
	}
	for _, c := range cases {
		if got := waveIDs(Waves(c.tasks, c.safe)); got != c.want {
			t.Errorf("%s: waves = %q, want %q", c.name, got, c.want)
		}
	}
}
