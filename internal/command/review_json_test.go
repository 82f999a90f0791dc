package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const schemaBase = "https://github.com/planx-dev/planx/docs/schema/"

// schemas compiles docs/schema/{log,verify,run-events}.json, asserting formats too.
func schemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, name := range []string{"log.json", "verify.json", "run-events.json"} {
		f, err := os.Open(filepath.Join("..", "..", "docs", "schema", name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := c.AddResource(schemaBase+name, doc); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for _, name := range []string{"log.json", "verify.json", "run-events.json"} {
		s, err := c.Compile(schemaBase + name)
		if err != nil {
			t.Fatalf("compile %s: %v", name, err)
		}
		out[name] = s
	}
	return out
}

// planx runs Main in-process and returns its exit code and stdout.
func planx(t *testing.T, args ...string) (int, []byte) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), append([]string{"planx"}, args...), &IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	if testing.Verbose() {
		t.Logf("planx %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return code, out.Bytes()
}

func validate(t *testing.T, s *jsonschema.Schema, what string, out []byte) map[string]any {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, out)
	}
	if err := s.Validate(inst); err != nil {
		t.Fatalf("%s does not match its schema: %v\n%s", what, err, out)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestReviewJSONMatchesSchemas(t *testing.T) {
	sch := schemas(t)
	gittest.Setenv(t)
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", "---\ntopic: two\ngates:\n  - name: check\n    command: test -f a.txt\n---\n# Two\n\n"+
		"- [ ] T001 Add a\n  ```sh run\n  echo a > a.txt\n  ```\n- [ ] T002 Add b\n  ```sh run\n  echo b > b.txt\n  ```\n")
	gittest.Commit(t, dir, "initial")
	if code, _ := planx(t, "run", "-C", dir, "plan.md"); code != 0 {
		t.Fatalf("planx run exited %d", code)
	}

	code, out := planx(t, "log", "--json", "-C", dir)
	log := validate(t, sch["log.json"], "log --json", out)
	runs := log["runs"].([]any)
	if code != 0 || len(runs) != 1 || len(runs[0].(map[string]any)["tasks"].([]any)) != 2 {
		t.Errorf("log: exit %d, %s", code, out)
	}
	// The run's ref bounds the read: history stops at its rollback commit.
	if rb := runs[0].(map[string]any)["rollback"]; log["read_to"] != rb {
		t.Errorf("log read to %v, want the rollback commit %v", log["read_to"], rb)
	}
	code, out = planx(t, "log", "--json", "--all", "-C", dir)
	if all := validate(t, sch["log.json"], "log --json --all", out); code != 0 || all["read_to"] != nil {
		t.Errorf("log --all: exit %d, read_to %v", code, all["read_to"])
	}

	code, out = planx(t, "verify", "--json", "--rerun-gates=tip", "--no-cache", "--trust-branch-config", "-C", dir)
	rep := validate(t, sch["verify.json"], "verify --json", out)
	if code != 0 || rep["ok"] != true || len(rep["rerun_gates"].([]any)) != 1 {
		t.Errorf("verify: exit %d, %s", code, out)
	}

	// Drift: the report carries the finding and its diff, and still matches.
	plan, _ := os.ReadFile(filepath.Join(dir, "plan.md"))
	gittest.WriteFile(t, dir, "plan.md", strings.Replace(string(plan), "echo b", "echo B", 1))
	gittest.Commit(t, dir, "edit T002")
	code, out = planx(t, "verify", "--json", "-C", dir)
	rep = validate(t, sch["verify.json"], "verify --json with drift", out)
	f := rep["findings"].([]any)[0].(map[string]any)
	if code != ExitDrift || rep["ok"] != false || f["kind"] != "drift" || !strings.Contains(f["diff"].(string), "+  echo B > b.txt\n") {
		t.Errorf("drift: exit %d, %s", code, out)
	}
	code, out = planx(t, "verify", "--json", "-C", dir, "HEAD~1..HEAD")
	validate(t, sch["verify.json"], "verify --json on a range", out)
	if code != 0 {
		t.Errorf("range without task commits: exit %d", code)
	}

	// The schemas are strict: a status the schema does not know fails. This
	// keeps the test honest about validating anything at all.
	code, out = planx(t, "log", "--json", "-C", dir)
	bad := bytes.Replace(out, []byte(`"status": "done"`), []byte(`"status": "finished"`), 1)
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if code != 0 || bytes.Equal(bad, out) || sch["log.json"].Validate(inst) == nil {
		t.Error("log schema accepted an unknown task status")
	}
}

// TestLogJSONCostMatchesSchema: a run of an agent that reports its cost
// (a custom command's usage file) logs it per task and summed per run,
// as docs/schema/log.json says.
func TestLogJSONCostMatchesSchema(t *testing.T) {
	sch := schemas(t)
	gittest.Setenv(t)
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", "---\ntopic: cost\nagent: sh agent.sh\n---\n# Cost\n\n"+
		"- [ ] T001 Add a\n  Files: a.txt\n- [ ] T002 Add b\n  Files: b.txt\n")
	gittest.WriteFile(t, dir, "agent.sh", "cat >/dev/null\ncase $PLANX_TASK_ID in T001) echo a > a.txt;; *) echo b > b.txt;; esac\n"+
		"echo '{\"input_tokens\": 100, \"output_tokens\": 10, \"usd\": 0.5}' > \"$PLANX_USAGE_FILE\"\n")
	gittest.Commit(t, dir, "initial")
	if code, out := planx(t, "run", "-C", dir, "plan.md"); code != 0 {
		t.Fatalf("planx run exited %d: %s", code, out)
	}
	code, out := planx(t, "log", "--json", "-C", dir)
	log := validate(t, sch["log.json"], "log --json", out)
	run := log["runs"].([]any)[0].(map[string]any)
	cost, _ := run["cost"].(map[string]any)
	if code != 0 || cost["in"] != 200.0 || cost["out"] != 20.0 || cost["usd"] != 1.0 {
		t.Errorf("log: exit %d, run cost %v", code, run["cost"])
	}
}
