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
	keys := []string{"id", "label", "title", "status", "parallel", "depends_on", "files", "line", "steps"}
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
