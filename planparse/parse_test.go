package planparse

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mustParse(t *testing.T, path, src string, opts Options) *Plan {
	t.Helper()
	p, err := Parse(path, []byte(src), opts)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p
}

func ids(ts []*Task) string {
	var s []string
	for _, t := range ts {
		s = append(s, string(t.ID))
	}
	return strings.Join(s, " ")
}

func diagsOf(p *Plan, sev Severity) []string {
	var out []string
	for _, d := range p.Diagnostics {
		if d.Severity == sev {
			out = append(out, d.Message)
		}
	}
	return out
}

func hasDiag(p *Plan, sev Severity, substr string) bool {
	for _, m := range diagsOf(p, sev) {
		if strings.Contains(m, substr) {
			return true
		}
	}
	return false
}

func TestNativeHeadingsAndFields(t *testing.T) {
	p, err := ParseFile("testdata/native/basic.md", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != FormatNative || p.Title != "Greeter service" || p.Topic != "greeter-service" {
		t.Fatalf("format/title/topic = %s/%q/%q", p.Format, p.Title, p.Topic)
	}
	if len(p.Gates) != 2 || p.Gates[0].Name != "test" || p.Gates[1].When != "final" {
		t.Fatalf("gates = %+v", p.Gates)
	}
	if got := ids(p.Tasks); got != "T001 T002 T003" {
		t.Fatalf("tasks = %s", got)
	}
	t1, t2, t3 := p.Tasks[0], p.Tasks[1], p.Tasks[2]
	if len(t1.Steps) != 1 || t1.Steps[0].Lang != "sh" || t1.Steps[0].Line != 37 ||
		t1.Steps[0].Code != "mkdir -p greeter\necho 'package greeter' > greeter/greeter.go\n" {
		t.Errorf("T001 steps = %+v (the go block is documentation, the sh run block is the step)", t1.Steps)
	}
	if len(t1.Files) != 2 || t1.Files[0] != (File{"greeter/greeter.go", ActionCreate}) ||
		t1.Files[1] != (File{"greeter/greeter_test.go", ActionTest}) {
		t.Errorf("T001 files = %+v", t1.Files)
	}
	if len(t1.Acceptance) != 2 || t1.Acceptance[1] != "tests pass" {
		t.Errorf("T001 acceptance = %q", t1.Acceptance)
	}
	if t1.Checkbox != -1 {
		t.Errorf("heading without a box has Checkbox %d, want -1", t1.Checkbox)
	}
	if len(t2.Steps) != 0 {
		t.Errorf("a plain bash block must never run: %+v", t2.Steps)
	}
	if t2.Executor != "agent" || t2.BlastRadius != "./cmd/..." || len(t2.Gates) != 1 || t2.Gates[0] != "test" {
		t.Errorf("T002 executor/blast/gates = %q/%q/%q", t2.Executor, t2.BlastRadius, t2.Gates)
	}
	if len(t2.DependsOn) != 1 || t2.DependsOn[0] != "T001" || t2.Checkbox < 0 || p.Source[t2.Checkbox] != ' ' {
		t.Errorf("T002 deps %v checkbox %d", t2.DependsOn, t2.Checkbox)
	}
	if t3.Label != "T3" || t3.Status != StatusDone || !t3.Checkpoint || t3.Phase != "Phase 2: Release" {
		t.Errorf("T003 = label %q status %s checkpoint %v phase %q", t3.Label, t3.Status, t3.Checkpoint, t3.Phase)
	}
	if err := p.Err(); err != nil {
		t.Errorf("Err() = %v", err)
	}
	if p.Task("T002") != t2 || p.Task("T999") != nil {
		t.Error("Task lookup")
	}
}

func TestBodyIsExactSourceRange(t *testing.T) {
	for _, f := range fixtures(t) {
		p, err := ParseFile(f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range p.Tasks {
			if tk.Start < 0 || tk.End > len(p.Source) || tk.Start > tk.End || string(p.Source[tk.Start:tk.End]) != tk.Body {
				t.Errorf("%s %s: body is not Source[%d:%d]", f, tk.ID, tk.Start, tk.End)
			}
			if want := bytes.Count(p.Source[:tk.Start], []byte("\n")) + 1; tk.Line != want {
				t.Errorf("%s %s: line %d, want %d", f, tk.ID, tk.Line, want)
			}
			if tk.Checkbox >= 0 && (tk.Checkbox < tk.Start || tk.Checkbox >= tk.End || p.Source[tk.Checkbox-1] != '[' || p.Source[tk.Checkbox+1] != ']') {
				t.Errorf("%s %s: checkbox offset %d does not point into [ ]", f, tk.ID, tk.Checkbox)
			}
		}
	}
}

func TestTickCRLF(t *testing.T) {
	src, err := os.ReadFile("testdata/native/crlf.md")
	if err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "crlf.md", string(src), Options{})
	t1 := p.Task("T001")
	if t1 == nil || t1.Status != StatusOpen {
		t.Fatalf("T001 = %+v", t1)
	}
	out, ok := Tick(src, t1)
	if !ok {
		t.Fatal("Tick refused an open box")
	}
	diff := 0
	for i := range src {
		if src[i] != out[i] {
			diff++
			if i != t1.Checkbox || out[i] != 'x' {
				t.Errorf("byte %d changed to %q", i, out[i])
			}
		}
	}
	if diff != 1 || len(out) != len(src) || bytes.Count(out, []byte("\r\n")) != bytes.Count(src, []byte("\r\n")) {
		t.Fatalf("Tick changed %d bytes (len %d -> %d)", diff, len(src), len(out))
	}
	if src[t1.Checkbox] != ' ' {
		t.Fatal("Tick modified its input")
	}
	again := mustParse(t, "crlf.md", string(out), Options{})
	if again.Task("T001").Status != StatusDone {
		t.Error("ticked task does not parse as done")
	}
	if again.Task("T001").Hash() != t1.Hash() {
		t.Error("ticking changed the task hash")
	}
	if _, ok := Tick(out, again.Task("T001")); ok {
		t.Error("Tick of a ticked box reported a change")
	}
	if t2 := again.Task("T002"); t2.Status != StatusDone {
		t.Errorf("[X] parses as %s", t2.Status)
	} else if res, ok := Tick(out, t2); ok || !bytes.Equal(res, out) {
		t.Error("Tick of an [X] box changed the source")
	}
}

func TestTickHeadingAndMissingBox(t *testing.T) {
	src, _ := os.ReadFile("testdata/native/basic.md")
	p := mustParse(t, "basic.md", string(src), Options{})
	if _, ok := Tick(src, p.Task("T001")); ok {
		t.Error("ticked a heading that has no checkbox")
	}
	out, ok := Tick(src, p.Task("T002"))
	if !ok || !bytes.Contains(out, []byte("### [x] T002: Wire")) {
		t.Fatal("heading checkbox not ticked")
	}
	if _, ok := Tick(src[:10], p.Task("T002")); ok {
		t.Error("Tick on a source that no longer holds the box must refuse")
	}
	if _, ok := Tick(src, nil); ok {
		t.Error("Tick(nil)")
	}
}

func TestHashNormalisation(t *testing.T) {
	a := mustParse(t, "a.md", "- [ ] T001 Do it  \n  details\n", Options{}).Tasks[0]
	b := mustParse(t, "b.md", "- [x] T001 Do it\r\n  details\r\n", Options{}).Tasks[0]
	c := mustParse(t, "c.md", "- [ ] T001 Do it\n  other details\n", Options{}).Tasks[0]
	if a.Hash() != b.Hash() {
		t.Error("CRLF, trailing spaces or checkbox state changed the hash")
	}
	if a.Hash() == c.Hash() {
		t.Error("editing the task text did not change the hash")
	}
	if len(a.Hash()) != 64 {
		t.Errorf("hash %q is not hex sha256", a.Hash())
	}
}

func TestOrderTopologicalStable(t *testing.T) {
	src := "### T001: a\n\n### T002: b\nDepends on: T004\n\n### T003: c\n\n### T004: d\nDepends on: T001\n"
	p := mustParse(t, "o.md", src, Options{})
	if got := ids(p.Order()); got != "T001 T003 T004 T002" {
		t.Errorf("Order = %s, want T001 T003 T004 T002", got)
	}
	if !hasDiag(p, SeverityWarning, "T002 depends on T004, which comes later") {
		t.Errorf("missing later-dependency warning: %v", p.Diagnostics)
	}
	if p.Err() != nil {
		t.Errorf("a forward dependency is not an error: %v", p.Err())
	}
}

func TestCycleNamesTasksAndLines(t *testing.T) {
	src := "# Plan\n\n### T001: a\n\n### T002: b\nDepends on: T003\n\n### T003: c\nDepends on: T002\n"
	p := mustParse(t, "c.md", src, Options{})
	want := "dependency cycle: T002 (line 5) -> T003 (line 8) -> T002"
	if !hasDiag(p, SeverityError, want) {
		t.Fatalf("want %q in %v", want, p.Diagnostics)
	}
	err := p.Err()
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "c.md:5: "+want) {
		t.Fatalf("Err() = %v", err)
	}
	self := mustParse(t, "s.md", "### T001: a\nDepends on: T001\n", Options{})
	if !hasDiag(self, SeverityError, "dependency cycle: T001 (line 1) -> T001") {
		t.Errorf("self dependency: %v", self.Diagnostics)
	}
}

func TestInvalidPlan(t *testing.T) {
	p, err := ParseFile("testdata/native/invalid.md", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"duplicate task ID T001 (first used on line 3)",
		"T003 depends on unknown task T009",
		`declares file "../outside.txt" outside the repository`,
		`declares file "/etc/passwd" outside the repository`,
		"executable code fence is never closed",
		"dependency cycle: T003 (line 12) -> T002 (line 8) -> T003",
	} {
		if !hasDiag(p, SeverityError, want) {
			t.Errorf("missing error %q", want)
		}
	}
	for _, d := range p.Diagnostics {
		if d.Hint == "" || (d.Severity == SeverityError && d.Line == 0) {
			t.Errorf("diagnostic without hint or line: %+v", d)
		}
	}
	if err := p.Err(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "testdata/native/invalid.md:17: duplicate task ID") {
		t.Errorf("Err() = %v", err)
	}
}

func TestUnreadable(t *testing.T) {
	if _, err := Parse("bin", []byte("# x\x00y"), Options{}); !errors.Is(err, ErrUnreadable) {
		t.Errorf("NUL bytes: %v", err)
	}
	if _, err := Parse("big", bytes.Repeat([]byte("a"), MaxSize+1), Options{}); !errors.Is(err, ErrUnreadable) {
		t.Errorf("oversized: %v", err)
	}
	if _, err := ParseFile(filepath.Join(t.TempDir(), "missing.md"), Options{}); !errors.Is(err, ErrUnreadable) {
		t.Errorf("missing file: %v", err)
	}
	big := filepath.Join(t.TempDir(), "big.md")
	if err := os.WriteFile(big, bytes.Repeat([]byte("- [ ] x\n"), MaxSize/8+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseFile(big, Options{}); !errors.Is(err, ErrUnreadable) {
		t.Errorf("oversized file: %v", err)
	}
	if _, err := Parse("x", []byte("x"), Options{Format: "yaml"}); err == nil || errors.Is(err, ErrUnreadable) {
		t.Errorf("unknown format: %v", err)
	}
}

func TestNoTasksIsAWarning(t *testing.T) {
	p := mustParse(t, "doc.md", "# Design\n\nJust prose.\n\n```bash\n- [ ] T001 not a task\n```\n", Options{})
	if len(p.Tasks) != 0 || p.Err() != nil || !hasDiag(p, SeverityWarning, "no tasks found") {
		t.Errorf("tasks %d, err %v, diags %v", len(p.Tasks), p.Err(), p.Diagnostics)
	}
	if p.Title != "Design" || p.Topic != "doc" {
		t.Errorf("title %q topic %q", p.Title, p.Topic)
	}
}

func TestIDsAndTopic(t *testing.T) {
	p := mustParse(t, "memory-bank/plan/2026-02-28_15-45-00_prompt_versioning.md",
		"### T1: one\n\n### T12: two\n\n### T1000: three\n", Options{})
	if got := ids(p.Tasks); got != "T001 T012 T1000" {
		t.Errorf("ids = %s", got)
	}
	if p.Tasks[0].Label != "T1" || p.Topic != "prompt-versioning" {
		t.Errorf("label %q topic %q", p.Tasks[0].Label, p.Topic)
	}
	fm := mustParse(t, "x.md", "---\ntitle: Fancy Title!\n---\n### T001: a\n", Options{})
	if fm.Topic != "fancy-title" || fm.Title != "Fancy Title!" {
		t.Errorf("front-matter title: topic %q title %q", fm.Topic, fm.Title)
	}
	top := mustParse(t, "x.md", "---\ntitle: A\ntopic: My Topic\n---\n### T001: a\n", Options{})
	if top.Topic != "my-topic" {
		t.Errorf("front-matter topic: %q", top.Topic)
	}
}

func TestFrontMatterProblems(t *testing.T) {
	bad := mustParse(t, "g.md", "---\ngates:\n  - name: t\n    command: go test\n    when: sometimes\n    timeout: soon\n  - command: x\nexecutor: robot\n---\n### T001: a\nGates: nope\n", Options{})
	for _, want := range []string{`when is "sometimes"`, `timeout "soon"`, "needs a name and a command", `executor "robot"`, `unknown gate "nope"`} {
		if !hasDiag(bad, SeverityError, want) {
			t.Errorf("missing %q in %v", want, bad.Diagnostics)
		}
	}
	yaml := mustParse(t, "y.md", "---\ntitle: [unclosed\n---\n### T001: a\n", Options{})
	if !hasDiag(yaml, SeverityError, "front matter") {
		t.Errorf("broken YAML: %v", yaml.Diagnostics)
	}
}

func TestUnterminatedDocFenceWarns(t *testing.T) {
	p := mustParse(t, "f.md", "### T001: a\n\n```bash\necho hi\n", Options{})
	if !hasDiag(p, SeverityWarning, "code fence is never closed") || p.Err() != nil {
		t.Errorf("diags %v", p.Diagnostics)
	}
}

func TestExecutableWarning(t *testing.T) {
	p := mustParse(t, "e.md", "- [ ] T001 a\n- [x] T002 b\n- [ ] T003 c\n  Executor: manual\n", Options{})
	if !hasDiag(p, SeverityWarning, "1 open task(s) have no `run` step") {
		t.Errorf("diags %v", p.Diagnostics)
	}
	agent := mustParse(t, "e.md", "---\nagent: claude -p\n---\n- [ ] T001 a\n", Options{})
	if hasDiag(agent, SeverityWarning, "no `run` step") {
		t.Error("a plan with an agent needs no run steps")
	}
}

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

func TestByteOrderMark(t *testing.T) {
	src := []byte("\ufeff---\ntitle: BOM\n---\n- [ ] T001 first\n")
	p := mustParse(t, "bom.md", string(src), Options{})
	if p.Title != "BOM" || len(p.Tasks) != 1 {
		t.Fatalf("title %q, %d tasks", p.Title, len(p.Tasks))
	}
	out, ok := Tick(src, p.Tasks[0])
	if !ok || !bytes.HasSuffix(out, []byte("- [x] T001 first\n")) || string(src[p.Tasks[0].Start:p.Tasks[0].End]) != p.Tasks[0].Body {
		t.Errorf("offsets ignore the BOM: %q", out)
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
