package testreport

import (
	"os"
	"strings"
	"testing"
)

// ev writes one test2json line.
func ev(action, pkg, test string) string {
	if test == "" {
		return `{"Action":"` + action + `","Package":"` + pkg + `"}` + "\n"
	}
	return `{"Action":"` + action + `","Package":"` + pkg + `","Test":"` + test + `"}` + "\n"
}

// outcomes renders a report's tests as "ID=outcome" for comparisons.
func outcomes(r Report) string {
	var parts []string
	for _, t := range r.Tests {
		parts = append(parts, t.ID+"="+string(t.Outcome))
	}
	return strings.Join(parts, "; ")
}

func TestParseGoJSON(t *testing.T) {
	tests := []struct {
		name, in string
		want     string
		failed   bool
		noteHas  string
	}{
		{"pass fail skip and subtests",
			ev("start", "p", "") + ev("run", "p", "TestA") + ev("pass", "p", "TestA") +
				ev("run", "p", "TestB") + ev("run", "p", "TestB/x") + ev("fail", "p", "TestB/x") + ev("fail", "p", "TestB") +
				ev("run", "p", "TestC") + ev("skip", "p", "TestC") + ev("fail", "p", ""),
			"p TestA=pass; p TestB=fail; p TestB/x=fail; p TestC=skip", false, ""},
		{"a package that fails with no failing test",
			ev("start", "p", "") + ev("run", "p", "TestA") + ev("pass", "p", "TestA") + ev("fail", "p", ""),
			"p TestA=pass", true, "package p failed with no failing test"},
		{"a test still running when the package fails",
			ev("run", "p", "TestA") + ev("pass", "p", "TestA") + ev("run", "p", "TestB") + ev("fail", "p", ""),
			"p TestA=pass; p TestB=fail", true, "p TestB started and never finished"},
		{"the stream stops before the package's result",
			ev("run", "p", "TestA") + ev("pass", "p", "TestA") + ev("run", "p", "TestB"),
			"p TestA=pass; p TestB=fail", true, "package p has no result"},
		{"plain text lines around the events",
			"go: downloading example.com/x v1.0.0\n" + ev("run", "p", "TestA") + ev("pass", "p", "TestA") + "\n" + ev("pass", "p", ""),
			"p TestA=pass", false, "not go test -json output: go: downloading example.com/x v1.0.0"},
		{"-count=2 with one failing run",
			ev("run", "p", "TestA") + ev("fail", "p", "TestA") + ev("run", "p", "TestA") + ev("pass", "p", "TestA") + ev("fail", "p", ""),
			"p TestA=fail", false, ""},
		{"parallel tests pause and continue",
			ev("run", "p", "TestA") + ev("pause", "p", "TestA") + ev("run", "p", "TestB") + ev("pass", "p", "TestB") +
				ev("cont", "p", "TestA") + ev("pass", "p", "TestA") + ev("pass", "p", ""),
			"p TestA=pass; p TestB=pass", false, ""},
		{"a package without test files", ev("start", "p", "") + ev("skip", "p", ""), "", false, ""},
		{"nothing at all", "", "", true, "no go test -json events"},
		{"a JSON line that is not an event", `{"foo":1}` + "\n" + ev("pass", "p", ""), "", false, `not go test -json output: {"foo":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseGoJSON(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := outcomes(r); got != tt.want {
				t.Errorf("tests = %q, want %q", got, tt.want)
			}
			if r.Failed != tt.failed {
				t.Errorf("Failed = %v, want %v (notes %q)", r.Failed, tt.failed, r.Notes)
			}
			if tt.noteHas != "" && !strings.Contains(strings.Join(r.Notes, "\n"), tt.noteHas) {
				t.Errorf("notes %q lack %q", r.Notes, tt.noteHas)
			}
			if r.Kind != KindGoJSON {
				t.Errorf("Kind = %q", r.Kind)
			}
		})
	}
}

// TestParseGoJSONReal checks what matters in real go test -json output
// (testdata/make-fixtures.sh): the ways a package fails without a failing
// test.
func TestParseGoJSONReal(t *testing.T) {
	tests := []struct {
		file   string
		failed bool
		want   map[string]Outcome // "" means absent
		why    string             // the first note
	}{
		{"go-exit1.json", true, map[string]Outcome{
			"example.com/calc/exit1 TestBefore":      Pass,
			"example.com/calc/exit1 TestExit1":       Fail,
			"example.com/calc/exit1 TestExit1/inner": Fail, // os.Exit(1): go says "running"
			"example.com/calc/exit1 TestAfter":       "",
		}, "package example.com/calc/exit1 stopped in the middle of a test"},
		{"go-timeout.json", true, map[string]Outcome{
			"example.com/calc/timeout TestQuick": Pass,
			"example.com/calc/timeout TestSlow":  Fail,
		}, "panic: test timed out after 2s"},
		{"go-vetfail.json", true, nil, "package example.com/calc/vetfail failed with no failing test"},
		{"go-mixed.json", true, map[string]Outcome{
			"example.com/calc/calc TestSub":            Fail,
			"example.com/calc/calc TestTable/sub-like": Pass,
			"example.com/calc/calc ExampleAdd":         Pass,
			"example.com/calc/calc TestSkip":           Skip,
			"example.com/calc/exits TestExit":          Fail, // os.Exit(0) in a test panics since go 1.16
			"example.com/calc/exits TestNever":         "",
			"example.com/calc/initpanic TestX":         "",
		}, "package example.com/calc/broken failed with no failing test: FAIL example.com/calc/broken [build failed]"},
		{"go-calc-base.json", false, map[string]Outcome{"example.com/calc/calc TestSub": Fail}, ""},
		{"go-mainexit.json", false, map[string]Outcome{"example.com/calc/mainexit TestHidden": ""}, ""},
		{"go-badmod.json", true, nil, "no go test -json events"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := ParseGoJSON(f)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, r, tt.failed, tt.want, tt.why)
		})
	}
}

// checkReport asserts Failed, some tests' outcomes ("" for absent) and
// the start of the first note.
func checkReport(t *testing.T, r Report, failed bool, want map[string]Outcome, why string) {
	t.Helper()
	if r.Failed != failed {
		t.Errorf("Failed = %v, want %v (notes %q)", r.Failed, failed, r.Notes)
	}
	for id, o := range want {
		got, ok := r.Lookup(id)
		if o == "" {
			if ok {
				t.Errorf("%s is in the report (%s), want it absent", id, got.Outcome)
			}
			continue
		}
		if !ok || got.Outcome != o {
			t.Errorf("%s = %q (found %v), want %q", id, got.Outcome, ok, o)
		}
	}
	if why != "" && (len(r.Notes) == 0 || !strings.Contains(r.Notes[0], why)) {
		t.Errorf("first note of %q does not say %q", r.Notes, why)
	}
}
