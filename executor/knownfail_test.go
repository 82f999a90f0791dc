package executor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/runstate"
)

func TestBaselineCovers(t *testing.T) {
	b := &runstate.Baseline{Known: map[string][]string{"test": {"calc TestDiv", "calc TestSub"}}}
	cases := []struct {
		name string
		b    *runstate.Baseline
		gate string
		ids  []string
		want bool
	}{
		{"all known", b, "test", []string{"calc TestSub"}, true},
		{"both known", b, "test", []string{"calc TestDiv", "calc TestSub"}, true},
		{"one new", b, "test", []string{"calc TestSub", "calc TestAdd"}, false},
		{"same name, other package", b, "test", []string{"other TestSub"}, false},
		{"other gate", b, "lint", []string{"calc TestSub"}, false},
		{"no test named", b, "test", nil, false},
		{"no baseline", nil, "test", []string{"calc TestSub"}, false},
	}
	for _, c := range cases {
		if got := c.b.Covers(c.gate, c.ids); got != c.want {
			t.Errorf("%s: covers = %v, want %v", c.name, got, c.want)
		}
	}
}

// failedTests reads the names from the gate's output, or from its declared
// report, and says when they are not the whole failure.
func TestFailedTests(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := gates.Gate{Name: "test", Command: "go test ./..."}
	tap := gates.Gate{Name: "test", Command: "sh tests.sh", Report: gates.Report{Kind: gates.ReportTAP}}
	cases := []struct {
		name  string
		g     gates.Gate
		out   string
		ids   []string
		whole bool
	}{
		{"go text", plain, "--- FAIL: TestSub (0.00s)\nFAIL\nFAIL\tcalc\t0.01s\n", []string{"calc TestSub"}, true},
		{"go build failure too", plain, "--- FAIL: TestSub (0.00s)\nFAIL\tcalc\t0.01s\nFAIL\tcalc/x [build failed]\n", []string{"calc TestSub"}, false},
		{"nothing named", plain, "Segmentation fault\n", nil, false},
		{"tap report", tap, "ok 1 - adds\nnot ok 2 - subtracts\n1..2\n", []string{"subtracts"}, true},
		{"tap report cut short", tap, "ok 1 - adds\nnot ok 2 - subtracts\n", []string{"subtracts"}, false},
	}
	for i, c := range cases {
		out := write(c.name+".log", c.out)
		fails, whole := failedTests(c.g, dir, out)
		if ids := testIDs(fails); !slices.Equal(ids, c.ids) || whole != c.whole {
			t.Errorf("case %d %s: %q whole=%v, want %q whole=%v", i, c.name, ids, whole, c.ids, c.whole)
		}
	}
}

// knownOnly excuses a report whose failing tests are all known, and
// nothing else: a new failure, a failure outside the tests, no failure.
func TestKnownOnly(t *testing.T) {
	r := &runner{st: &runstate.State{Baseline: &runstate.Baseline{Known: map[string][]string{"test": {"calc TestSub"}}}}}
	fail := func(id string) testreport.Test {
		return testreport.Test{ID: id, Group: "calc", Outcome: testreport.Fail}
	}
	pass := testreport.Test{ID: "calc TestAdd", Group: "calc", Outcome: testreport.Pass}
	cases := []struct {
		name string
		rep  testreport.Report
		want bool
	}{
		{"known alone", testreport.Report{Tests: []testreport.Test{pass, fail("calc TestSub")}}, true},
		{"a new failure", testreport.Report{Tests: []testreport.Test{fail("calc TestSub"), fail("calc TestNew")}}, false},
		{"failed outside the tests", testreport.Report{Tests: []testreport.Test{fail("calc TestSub")}, Failed: true}, false},
		{"nothing fails", testreport.Report{Tests: []testreport.Test{pass}}, false},
	}
	for _, c := range cases {
		if _, got := r.knownOnly("test", c.rep); got != c.want {
			t.Errorf("%s: knownOnly = %v, want %v", c.name, got, c.want)
		}
	}
}

// A state written by a planx without baselines reads with none; one with
// a baseline keeps its known failures.
func TestStateBaselineOptional(t *testing.T) {
	var old runstate.State
	if err := json.Unmarshal([]byte(`{"run_id":"x","plan_path":"p.md","status":"failed"}`), &old); err != nil || old.Baseline != nil {
		t.Fatalf("old state: %v, baseline %+v", err, old.Baseline)
	}
	st := runstate.State{RunID: "x", Baseline: &runstate.Baseline{Commit: "abc", Known: map[string][]string{"test": {"calc TestSub"}}}}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back runstate.State
	if err := json.Unmarshal(data, &back); err != nil || back.Baseline == nil || !slices.Equal(back.Baseline.Known["test"], []string{"calc TestSub"}) {
		t.Fatalf("round trip: %v, %+v", err, back.Baseline)
	}
}

func TestBaselineGates(t *testing.T) {
	all := []gates.Gate{
		{Name: "fmt", Command: "gofmt -w .", Fix: true},
		{Name: "test", Command: "go test ./..."},
		{Name: "e2e", Command: "make e2e", When: gates.WhenFinal},
	}
	var names []string
	for _, g := range baselineGates(all) {
		names = append(names, g.Name)
	}
	if !slices.Equal(names, []string{"test"}) {
		t.Errorf("baselineGates = %q, want [test]", names)
	}
}

func TestKnownList(t *testing.T) {
	got := knownList(map[string][]string{"test": {"calc TestDiv", "calc TestSub"}, "lint": {"x"}})
	if want := "lint: x; test: calc TestDiv, calc TestSub"; got != want {
		t.Errorf("knownList = %q, want %q", got, want)
	}
}
