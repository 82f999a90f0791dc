package planparse

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestFormatOverride(t *testing.T) {
	src := "- [ ] T001 a\n- [ ] T002 b\n"
	if p := mustParse(t, "x.md", src, Options{}); p.Format != FormatSpecKit || len(p.Tasks) != 2 {
		t.Fatalf("auto: %s %d", p.Format, len(p.Tasks))
	}
	p := mustParse(t, "x.md", src, Options{Format: FormatChecklist})
	if p.Format != FormatChecklist || len(p.Tasks) != 2 || p.Tasks[0].Label != "T001" {
		t.Errorf("override: %s %d", p.Format, len(p.Tasks))
	}
	if f, err := ParseFormat("memory-bank"); err != nil || f != FormatNative {
		t.Errorf("ParseFormat(memory-bank) = %q, %v", f, err)
	}
	if _, err := ParseFormat("nope"); err == nil {
		t.Error("ParseFormat accepted nope")
	}
}

func TestSpecKitLine(t *testing.T) {
	p, err := ParseFile("testdata/speckit/tasks.md", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != FormatSpecKit || ids(p.Tasks) != "T001 T002 T003 T004 T005 T006 T007" {
		t.Fatalf("%s: %s", p.Format, ids(p.Tasks))
	}
	t4, t6, t7 := p.Task("T004"), p.Task("T006"), p.Task("T007")
	if !t4.Parallel || len(t4.Labels) != 1 || t4.Labels[0] != "US1" || t4.Files[0].Path != "tests/integration/test_save.py" {
		t.Errorf("T004 glued labels: %+v %v %v", t4.Labels, t4.Parallel, t4.Files)
	}
	if len(t6.DependsOn) != 1 || t6.DependsOn[0] != "T005" || strings.Contains(t6.Title, "depends") {
		t.Errorf("T006 deps %v title %q", t6.DependsOn, t6.Title)
	}
	if len(t7.Files) != 2 || t7.Files[1] != (File{"src/api/routes.py", ActionTouch}) || t7.Labels[0] != "MODULE:api" {
		t.Errorf("T007 files %v labels %v", t7.Files, t7.Labels)
	}
	if p.Task("T001").Status != StatusDone || p.Task("T003").Status != StatusOpen {
		t.Error("[X] and [ ] status")
	}
}

func TestKiro(t *testing.T) {
	p, err := ParseFile("testdata/kiro/tasks.md", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		label, parent string
		status        Status
	}{{"1", "", StatusDone}, {"2", "", StatusInProgress}, {"2.1", "T002", StatusDone}, {"2.2", "T002", StatusOptional},
		{"3", "", StatusOpen}, {"3.1", "T005", StatusOpen}, {"3.2", "T005", StatusOpen}, {"4", "", StatusOpen}}
	if p.Format != FormatKiro || len(p.Tasks) != len(want) {
		t.Fatalf("%s %d tasks", p.Format, len(p.Tasks))
	}
	for i, w := range want {
		tk := p.Tasks[i]
		if tk.Label != w.label || string(tk.Parent) != w.parent || tk.Status != w.status {
			t.Errorf("task %d = %q parent %q %s, want %+v", i, tk.Label, tk.Parent, tk.Status, w)
		}
	}
	t31, t32 := p.Task("T006"), p.Task("T007")
	if !t31.Parallel || t31.BlastRadius != "api" || len(t31.Acceptance) != 1 || t31.Acceptance[0] != "Requirements: 3.1" {
		t.Errorf("3.1: %+v", t31)
	}
	if len(t32.DependsOn) != 1 || t32.DependsOn[0] != "T006" || t32.Acceptance[0] != "Requisitos: 3.2" {
		t.Errorf("3.2 deps %v acceptance %q", t32.DependsOn, t32.Acceptance)
	}
	if !p.Task("T008").Checkpoint {
		t.Error("Checkpoint task not flagged")
	}
	if strings.Contains(p.Task("T002").Body, "2.1") {
		t.Error("a parent's body must stop where its first sub-task starts")
	}
}

func TestSuperpowersAndPhased(t *testing.T) {
	sp, _ := ParseFile("testdata/superpowers/plan.md", Options{})
	if sp.Format != FormatSuperpowers || len(sp.Tasks) != 2 || sp.Tasks[0].Label != "Task 1" {
		t.Fatalf("superpowers: %s %d", sp.Format, len(sp.Tasks))
	}
	if f := sp.Tasks[0].Files; len(f) != 3 || f[1] != (File{"src/main.ts", ActionModify}) || f[2].Action != ActionTest {
		t.Errorf("superpowers files %v", f)
	}
	if f := sp.Tasks[1].Files; len(f) != 1 {
		t.Errorf("Reference: lines are not declared files: %v", f)
	}
	ph, _ := ParseFile("testdata/phased/plan.md", Options{})
	if ph.Format != FormatPhased || ids(ph.Tasks) != "T001 T002 T003" {
		t.Fatalf("phased: %s %s", ph.Format, ids(ph.Tasks))
	}
	if d := ph.Tasks[2].DependsOn; len(d) != 2 || d[1] != "T002" || ph.Tasks[2].Status != StatusDone || ph.Tasks[2].Title != "Drop the redundant index" {
		t.Errorf("Task 2.1: deps %v status %s title %q", d, ph.Tasks[2].Status, ph.Tasks[2].Title)
	}
	items, _ := ParseFile("testdata/phased/items.md", Options{})
	if len(items.Tasks) != 4 || items.Tasks[0].Checkbox < 0 || items.Tasks[2].Checkbox != -1 || items.Tasks[1].Status != StatusDone {
		t.Errorf("phased items/paragraphs: %d tasks", len(items.Tasks))
	}
}

func TestChecklistExclusions(t *testing.T) {
	p, _ := ParseFile("testdata/checklist/plan.md", Options{})
	if p.Format != FormatChecklist || len(p.Tasks) != 6 {
		t.Fatalf("%s %d tasks", p.Format, len(p.Tasks))
	}
	for _, tk := range p.Tasks {
		if strings.Contains(tk.Title, "tests green") || strings.Contains(tk.Title, "Renders") {
			t.Errorf("criteria item became a task: %q", tk.Title)
		}
	}
	if p.Tasks[0].Title != "Measured the slow path" || p.Tasks[2].Parent != "T002" {
		t.Errorf("timestamp prefix or parent: %q %q", p.Tasks[0].Title, p.Tasks[2].Parent)
	}
	if t6 := p.Tasks[5]; t6.Label != "TASK-002" || len(t6.DependsOn) != 1 || t6.DependsOn[0] != "T005" || len(t6.Acceptance) != 1 {
		t.Errorf("pipe fields: %+v", t6)
	}
}

func TestTaskMaster(t *testing.T) {
	p, _ := ParseFile("testdata/taskmaster/tasks.json", Options{})
	if p.Format != FormatTaskMaster || len(p.Tasks) != 5 {
		t.Fatalf("%s %d", p.Format, len(p.Tasks))
	}
	sub := p.Tasks[4]
	if sub.Label != "2.1" || sub.Parent != "T004" || len(sub.DependsOn) != 1 || sub.DependsOn[0] != "T003" {
		t.Errorf("subtask: %+v", sub)
	}
	if p.Tasks[2].DependsOn[0] != "T002" || !strings.HasPrefix(p.Tasks[2].Body, `{"id": 2`) {
		t.Errorf("integer subtask dependency or body: %v %q", p.Tasks[2].DependsOn, p.Tasks[2].Body)
	}
	bad := mustParse(t, "tasks.json", `{"tasks": [`, Options{})
	if bad.Err() == nil {
		t.Error("truncated JSON is an error")
	}
	txt, _ := ParseFile("testdata/taskmaster/task_002.txt", Options{})
	if len(txt.Tasks) != 3 || txt.Tasks[2].DependsOn[0] != "T002" || txt.Tasks[1].Status != StatusDone || txt.Err() != nil {
		t.Errorf("task_002.txt: %d tasks %v", len(txt.Tasks), txt.Diagnostics)
	}
}

func TestItemsInFencesAreNotTasks(t *testing.T) {
	src := "# P\n\n````markdown\n- [ ] T001 inside\n```bash\n- [ ] T002 inner\n```\n````\n\n- [ ] T003 real\n"
	p := mustParse(t, "f.md", src, Options{})
	if ids(p.Tasks) != "T003" {
		t.Errorf("tasks = %s", ids(p.Tasks))
	}
}

func TestTableTasks(t *testing.T) {
	src, err := os.ReadFile("testdata/native/table.md")
	if err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "table.md", string(src), Options{})
	if p.Format != FormatNative || ids(p.Tasks) != "T001 T002" {
		t.Fatalf("%s: %s", p.Format, ids(p.Tasks))
	}
	t1, t2 := p.Tasks[0], p.Tasks[1]
	if t1.Title != "Define `PromptVersion \\| None` type" || t1.Status != StatusDone || t2.Status != StatusOpen {
		t.Errorf("T1 %q %s, T2 %s", t1.Title, t1.Status, t2.Status)
	}
	if len(t2.DependsOn) != 1 || len(t2.Files) != 2 || t2.Files[1].Path != "tests/test_versioning.py" || t2.Acceptance[0] != "equal inputs, equal hashes" {
		t.Errorf("T2 = %+v", t2)
	}
	out, ok := Tick(src, t2)
	if !ok || !bytes.Contains(out, []byte("`tests/test_versioning.py` | [x] |")) {
		t.Errorf("table checkbox not ticked")
	}
}

func TestMarkdownOpeningWithALink(t *testing.T) {
	p := mustParse(t, "README.md", "[![ci](https://x/badge.svg)](https://x)\n\n- [ ] T001 a\n", Options{})
	if p.Format == FormatTaskMaster || len(p.Tasks) != 1 || p.Err() != nil {
		t.Errorf("format %s, %d tasks, %v", p.Format, len(p.Tasks), p.Err())
	}
	fence := mustParse(t, "f.md", "1. ```sh run\n   echo hi\n   ```\n", Options{Format: FormatNative})
	if hasDiag(fence, SeverityError, "never closed") || hasDiag(fence, SeverityWarning, "never closed") {
		t.Errorf("a fence opened after a list marker is closed: %v", fence.Diagnostics)
	}
}
