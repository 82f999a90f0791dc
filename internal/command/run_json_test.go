package command

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// events runs planx with --json and returns the event names in order, each
// line validated against docs/schema/run-events.json.
func events(t *testing.T, s *jsonschema.Schema, wantCode int, args ...string) []string {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), append([]string{"planx"}, args...), &IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	if code != wantCode {
		t.Fatalf("planx %v: exit %d, want %d\n%s\n%s", args, code, wantCode, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "planx: running") && args[0] == "run" {
		t.Errorf("human progress should go to stderr with --json:\n%s", errb.String())
	}
	var names []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(sc.Text()))
		if err != nil {
			t.Fatalf("not JSON: %q: %v", sc.Text(), err)
		}
		if err := s.Validate(inst); err != nil {
			t.Fatalf("event does not match the schema: %v\n%s", err, sc.Text())
		}
		names = append(names, inst.(map[string]any)["event"].(string)+":"+str(inst, "task")+":"+str(inst, "status"))
	}
	return names
}

func str(inst any, key string) string {
	v, _ := inst.(map[string]any)[key].(string)
	return v
}

func TestRunJSONEvents(t *testing.T) {
	s := schemas(t)["run-events.json"]
	gittest.Setenv(t)
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", "---\ntopic: ev\ngates:\n  - name: check\n    command: \"! test -f bad.txt\"\n---\n"+
		"- [ ] T001 Add a\n  ```sh run\n  echo a > a.txt\n  ```\n- [ ] T002 Add bad\n  ```sh run\n  echo x > bad.txt\n  ```\n")
	got := events(t, s, ExitTaskFailed, "run", "--json", "-C", dir, "plan.md")
	want := []string{"run_start::", "task_start:T001:", "step_end:T001:", "gate:T001:", "task_end:T001:done",
		"task_start:T002:", "step_end:T002:", "gate:T002:", "task_end:T002:failed", "run_end::failed"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("events:\n%v\nwant:\n%v", got, want)
	}
	if err := os.Remove(filepath.Join(dir, "bad.txt")); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, "good.txt", "fixed by hand\n")
	gittest.Git(t, dir, "add", "good.txt") // a new file no task declares: staged, it is T002's
	got = events(t, s, ExitOK, "resume", "--json", "-C", dir)
	want = []string{"task_start:T002:", "gate:T002:", "task_end:T002:done", "run_end::completed"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("resume events:\n%v\nwant:\n%v", got, want)
	}
}

// On GitHub Actions a failure becomes an error annotation on the plan's line
// and the step summary gets a table of the tasks.
func TestGitHubAnnotationsAndSummary(t *testing.T) {
	gittest.Setenv(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", "---\ntopic: gh\n---\n- [ ] T001 Add a\n  ```sh run\n  echo a > a.txt\n  ```\n- [ ] T002 Fail\n  ```sh run\n  exit 3\n  ```\n")
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"planx", "run", "-C", dir, "plan.md"}, &IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	if code != ExitTaskFailed {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "::error file=plan.md,line=8::T002 failed: step 1/1 (plan line 10) failed with exit code 3") {
		t.Fatalf("no error annotation:\n%s", out.String())
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### planx: plan.md — failed", "| T001 | done |", "| T002 | **failed** |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
}
