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

func TestDeclaredFileInGitDir(t *testing.T) {
	p := mustParse(t, "g.md", "### T001: a\nFiles: .git/hooks/pre-commit, src/.gitkeep, .github/x.yml\n", Options{})
	if !hasDiag(p, SeverityError, `T001 declares file ".git/hooks/pre-commit" inside .git/`) {
		t.Fatalf("no error for a .git/ path: %v", p.Diagnostics)
	}
	if n := len(p.Diagnostics); hasDiag(p, SeverityError, "src/.gitkeep") || hasDiag(p, SeverityError, ".github/x.yml") {
		t.Fatalf("files merely named like .git flagged (%d diagnostics): %v", n, p.Diagnostics)
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
	for _, want := range []string{`when is "sometimes"`, `timeout "soon"`, "gate 2 (x) needs a name", `executor "robot"`, `unknown gate "nope"`} {
		if !hasDiag(bad, SeverityError, want) {
			t.Errorf("missing %q in %v", want, bad.Diagnostics)
		}
	}
	// Every diagnostic points at its own line: the gate's, the key's.
	lines := map[string]int{}
	for _, d := range bad.Diagnostics {
		lines[d.Message] = d.Line
	}
	for msg, want := range map[string]int{`gate "t": when is "sometimes", want each or final`: 3, "gate 2 (x) needs a name": 7,
		`front matter executor "robot" is not shell, agent or manual`: 8} {
		if lines[msg] != want {
			t.Errorf("%q on line %d, want %d (%v)", msg, lines[msg], want, bad.Diagnostics)
		}
	}
	yaml := mustParse(t, "y.md", "---\ntitle: [unclosed\n---\n### T001: a\n", Options{})
	if !hasDiag(yaml, SeverityError, "front matter") {
		t.Errorf("broken YAML: %v", yaml.Diagnostics)
	}
}

func TestFrontMatterUnknownKeys(t *testing.T) {
	src := "---\ntitle: Add clamp\ngates:\n  - name: test\n    run: go test ./...\n    timout: 5m\nagnet: claude\n---\n### T001: a\n"
	p := mustParse(t, "add-clamp.md", src, Options{})
	want := []Diagnostic{
		{SeverityError, 4, `gate "test" needs a command`, "add command: to the gate"},
		{SeverityError, 5, `front matter: unknown gate key "run"`, "did you mean command? known keys: name, command, timeout, when, fix"},
		{SeverityError, 6, `front matter: unknown gate key "timout"`, "did you mean timeout? known keys: name, command, timeout, when, fix"},
		{SeverityError, 7, `front matter: unknown key "agnet"`, ""},
	}
	var errs []Diagnostic
	for _, d := range p.Diagnostics {
		if d.Severity == SeverityError {
			errs = append(errs, d)
		}
	}
	if len(errs) != len(want) {
		t.Fatalf("errors %v, want %v", errs, want)
	}
	for i, w := range want {
		if errs[i].Line != w.Line || errs[i].Message != w.Message || (w.Hint != "" && errs[i].Hint != w.Hint) {
			t.Errorf("error %d = %+v, want %+v", i, errs[i], w)
		}
	}
	if !strings.HasPrefix(errs[3].Hint, "did you mean agent?") {
		t.Errorf("agnet hint %q", errs[3].Hint)
	}
	// Front matter of another tool (no planx key) is not planx's to judge.
	other := mustParse(t, "c.plan.md", "---\nname: x\nisProject: false\nphase: 2\n---\n### T001: a\n", Options{})
	if err := other.Err(); err != nil {
		t.Errorf("foreign front matter: %v", err)
	}
	broken := mustParse(t, "y.md", "---\ntitle: a\ngates: [\n---\n### T001: a\n", Options{})
	if len(broken.Diagnostics) == 0 || broken.Diagnostics[0].Line < 2 {
		t.Errorf("YAML error line: %v", broken.Diagnostics)
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

func TestQuotedFileNames(t *testing.T) {
	p := mustParse(t, "q.md", "### T001: a\nFiles:\n- \"quoted\".txt\n- \"plain.txt\"\n- 'single.md'\n", Options{})
	var got []string
	for _, f := range p.Tasks[0].Files {
		got = append(got, f.Path)
	}
	if strings.Join(got, "|") != `"quoted".txt|plain.txt|single.md` {
		t.Errorf("files %q", got)
	}
}

func TestTasksTopicFromFeatureDir(t *testing.T) {
	for path, want := range map[string]string{
		"specs/001-foo/tasks.md":           "001-foo",
		".kiro/specs/bar/tasks.md":         "bar",
		".kiro/specs/bar/tasks-es.md":      "bar",
		"memory-bank/plan/2026-01-02_x.md": "x",
		"tasks.md":                         "tasks",
	} {
		if p := mustParse(t, path, "- [ ] T001 a\n", Options{}); p.Topic != want {
			t.Errorf("%s: topic %q, want %q", path, p.Topic, want)
		}
	}
}

func TestSpecKitWithRunFences(t *testing.T) {
	body := "## Phase 1: Setup\n\n- [ ] T001 [P] Create the layout\n  ```sh run\n  mkdir -p src\n  ```\n- [ ] T002 [US1] Add the handler\n"
	if p := mustParse(t, "specs/001-foo/tasks.md", body, Options{}); p.Format != FormatSpecKit || len(p.Tasks) != 2 {
		t.Errorf("spec-kit tasks.md with run fences: %s, %d tasks", p.Format, len(p.Tasks))
	}
	plain := "# Fixes\n\n- [ ] T001 Create the layout\n  ```sh run\n  mkdir -p src\n  ```\n"
	if p := mustParse(t, "fixes.md", plain, Options{}); p.Format != FormatNative {
		t.Errorf("planx checklist with run fences: %s", p.Format)
	}
}

// A heading's [P], right after the ID or at the end of the title, marks
// the task parallel as a checklist line's does, and leaves the title; a
// [P] inside a title is the title's; Parallel: no still wins.
func TestHeadingParallelMark(t *testing.T) {
	src := "---\ntitle: x\n---\n" +
		"### T001 [P]: One\n\n### T002: [p] Two\n\n### T003: Three [P]\n\n### T004: Four [P] and more\n\n" +
		"### T005: Five\n\n### T006 [P]: Six\nParallel: no\n"
	p := mustParse(t, "plan.md", src, Options{})
	want := []struct {
		title    string
		parallel bool
	}{{"One", true}, {"Two", true}, {"Three", true}, {"Four [P] and more", false}, {"Five", false}, {"Six", false}}
	if len(p.Tasks) != len(want) {
		t.Fatalf("tasks %s", ids(p.Tasks))
	}
	for i, w := range want {
		if got := p.Tasks[i]; got.Title != w.title || got.Parallel != w.parallel {
			t.Errorf("%s: title %q parallel %v, want %q %v", got.ID, got.Title, got.Parallel, w.title, w.parallel)
		}
	}
}
