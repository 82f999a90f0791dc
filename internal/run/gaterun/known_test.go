package gaterun

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/testreport"
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
	b := &runstate.Baseline{Known: map[string][]string{"test": {"calc TestSub"}}}
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
		if _, got := knownOnly(b, "test", c.rep); got != c.want {
			t.Errorf("%s: knownOnly = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestKnownList(t *testing.T) {
	got := KnownList(map[string][]string{"test": {"calc TestDiv", "calc TestSub"}, "lint": {"x"}})
	if want := "lint: x; test: calc TestDiv, calc TestSub"; got != want {
		t.Errorf("KnownList = %q, want %q", got, want)
	}
}
