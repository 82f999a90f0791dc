package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/planparse"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func writePlan(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runMain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), append([]string{"planx"}, args...), &IO{In: strings.NewReader(""), Out: &out, Err: &errOut})
	return code, out.String(), errOut.String()
}

const cyclePlan = `# Cyclic

### T001: Start
Executor: manual

### T002: Middle
Depends on: T003
Executor: manual

### T003: End
Depends on: T002
Executor: manual
`

func TestValidateExitCodes(t *testing.T) {
	valid := writePlan(t, "ok.md", "### T001: a\n\n```sh run\ntrue\n```\n")
	cycle := writePlan(t, "cycle.md", cyclePlan)
	binary := writePlan(t, "bin.md", "# x\x00\n")
	empty := writePlan(t, "empty.md", "# Notes\n\nNo tasks.\n")
	for _, tc := range []struct {
		name string
		args []string
		want int
		out  string
	}{
		{"valid", []string{"validate", valid}, ExitOK, "1 task(s), 0 error(s)"},
		{"no tasks is a warning", []string{"validate", empty}, ExitOK, "warning: no tasks found"},
		{"cycle", []string{"validate", cycle}, ExitPlanInvalid, "error: dependency cycle: T002 (line 6) -> T003 (line 10) -> T002"},
		{"binary", []string{"validate", binary}, ExitPlanInvalid, ""},
		{"missing file", []string{"validate", filepath.Join(t.TempDir(), "nope.md")}, ExitPlanInvalid, ""},
		{"missing argument", []string{"validate"}, ExitUsage, ""},
		{"two arguments", []string{"validate", valid, valid}, ExitUsage, ""},
		{"bad format", []string{"validate", "--format", "yaml", valid}, ExitUsage, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runMain(t, tc.args...)
			if code != tc.want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.want, out, errOut)
			}
			if !strings.Contains(out, tc.out) {
				t.Errorf("stdout lacks %q:\n%s", tc.out, out)
			}
		})
	}
}

func TestRunValidateJSON(t *testing.T) {
	path := writePlan(t, "cycle.md", cyclePlan)
	var out bytes.Buffer
	err := runValidate(context.Background(), validateOptions{Path: path, JSON: true}, &IO{Out: &out, Err: &out})
	if !errors.Is(err, planparse.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	var r struct {
		Path, Title, Topic, Format string
		Tasks                      []map[string]any
		Diagnostics                []planparse.Diagnostic
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out.String())
	}
	if r.Format != "native" || r.Topic != "cycle" || len(r.Tasks) != 3 || len(r.Diagnostics) == 0 {
		t.Fatalf("report = %+v", r)
	}
	keys := []string{"id", "label", "title", "status", "parallel", "parent", "children", "optional", "checkpoint",
		"executor", "depends_on", "files", "acceptance", "gates", "line", "steps"}
	for _, k := range keys {
		if _, ok := r.Tasks[1][k]; !ok {
			t.Errorf("task lacks %q", k)
		}
	}
	if len(r.Tasks[1]) != len(keys) {
		t.Errorf("task has extra keys: %v", r.Tasks[1])
	}
	if d := r.Diagnostics[0]; d.Severity != planparse.SeverityError || d.Line != 6 || !strings.HasPrefix(d.Message, "dependency cycle:") || d.Hint == "" {
		t.Errorf("first diagnostic = %+v, want the cycle error on line 6", d)
	}
}

const kiroPlan = `# Implementation Plan

- [ ] 1. Set up the project
  - [ ] 1.1 Create the layout
    - Files: src/
  - [ ]* 1.2 Write property tests
- [ ] 2. Checkpoint - Ensure all tests pass, ask the user if questions arise.
`

// TestValidateJSONSchema checks validate --json against docs/schema/validate.json
// and that groups, optional tasks, checkpoints and the resolved gates
// (.planx.yaml's and the plan's) are reported.
func TestValidateJSONSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	f, err := os.Open(filepath.Join("..", "..", "docs", "schema", "validate.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource(schemaBase+"validate.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaBase + "validate.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() // not a git repository: validate needs none
	plan := filepath.Join(dir, "tasks.md")
	if err := os.WriteFile(plan, []byte(kiroPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "gates:\n  - name: test\n    command: go test ./...\n  - name: lint\n    command: golangci-lint run\n    when: final\n"
	if err := os.WriteFile(filepath.Join(dir, ".planx.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runMain(t, "validate", "--json", plan)
	if code != ExitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	validate(t, sch, "validate --json", []byte(out))
	var r validateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Topic != filepath.Base(dir) {
		t.Errorf("topic %q: a tasks.md takes its directory's name", r.Topic)
	}
	got := map[planparse.TaskID]validateTask{}
	for _, vt := range r.Tasks {
		got[vt.ID] = vt
	}
	if g := got["T001"]; strings.Join(ids(g.Children), ",") != "T002,T003" || len(g.Gates) != 0 {
		t.Errorf("group T001: %+v", g)
	}
	if g := got["T002"]; g.Parent != "T001" || strings.Join(g.Gates, ",") != "test" {
		t.Errorf("T002: %+v", g)
	}
	if g := got["T003"]; !g.Optional {
		t.Errorf("T003 not optional: %+v", g)
	}
	if g := got["T004"]; !g.Checkpoint || g.Executor != "gates" || strings.Join(g.Gates, ",") != "test,lint" {
		t.Errorf("checkpoint T004: %+v", g)
	}

	// A broken .planx.yaml fails validate, naming its line and the key meant.
	if err := os.WriteFile(filepath.Join(dir, ".planx.yaml"), []byte("gates:\n  - name: test\n    run: go test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runMain(t, "validate", plan)
	if code != ExitPlanInvalid || !strings.Contains(out, ".planx.yaml:3: error: unknown gate key \"run\" (did you mean command?") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = runMain(t, "validate", "--json", plan)
	if code != ExitPlanInvalid || !strings.Contains(out, `"line": 3`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	validate(t, sch, "validate --json with a config error", []byte(out))
}

func ids(s []planparse.TaskID) []string {
	var out []string
	for _, id := range s {
		out = append(out, string(id))
	}
	return out
}
