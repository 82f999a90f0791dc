package testreport

import (
	"os"
	"strings"
	"testing"
)

func TestParseTAP(t *testing.T) {
	tests := []struct {
		name, in string
		want     string
		failed   bool
		noteHas  string
	}{
		{"points and directives", "TAP version 13\nok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP no db\nnot ok 4 - d # TODO later\nok 5 - e # skip\n1..5\n",
			"a=pass; b=fail; c=skip; d=skip; e=skip", false, ""},
		{"subtests take their parents' names", "TAP version 13\n# Subtest: outer\n    # Subtest: inner\n        ok 1 - leaf\n        1..1\n    ok 1 - inner\n    not ok 2 - other\n    1..2\nnot ok 1 - outer\n1..1\n",
			"outer=fail; outer > inner=pass; outer > inner > leaf=pass; outer > other=fail", false, ""},
		{"subtests without Subtest comments", "    ok 1 - inner\n    1..1\nok 1 - outer\n1..1\n", "outer=pass; outer > inner=pass", false, ""},
		{"escaped names", "ok 1 - a \\# b \\\\ c # SKIP why\n1..1\n", `a # b \ c=skip`, false, ""},
		{"a YAML block is not read as points", "not ok 1 - a\n  ---\n  error: |-\n    ok 7 - not a point\n    1..9\n  ...\nok 2 - b\n1..2\n",
			"a=fail; b=pass", false, ""},
		{"node's describe block is left out of its tally", "# Subtest: s\n    not ok 1 - t\n    1..1\nnot ok 1 - s\n  ---\n  type: 'suite'\n  ...\n1..1\n# tests 1\n# suites 1\n# fail 1\n",
			"s=fail; s > t=fail", false, ""},
		{"no plan: the run stopped", "TAP version 13\nok 1 - a\n", "a=pass", true, "has no plan"},
		{"a plan that is not met", "ok 1 - a\n1..3\n", "a=pass", true, "the TAP plan says 3 tests but 1 were reported"},
		{"bail out", "ok 1 - a\nBail out! database gone\n", "a=pass", true, "TAP bailed out: Bail out! database gone"},
		{"node's tally counts failures the points do not show", "ok 1 - a\n1..1\n# tests 2\n# fail 1\n", "a=pass", true, "node counts 1 failed"},
		{"the stream stops inside a subtest", "# Subtest: outer\n    ok 1 - inner\n    # Subtest: deeper\n        not ok 1 - leaf\n",
			"outer > deeper > leaf=fail; outer > inner=pass", true, `the TAP stream stops inside "outer"`},
		{"empty plan", "1..0 # SKIP nothing here\n", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseTAP(strings.NewReader(tt.in))
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
		})
	}
}

// TestParseTAPReal reads node 20's TAP (testdata/make-fixtures.sh): nested
// tests, describe blocks, skip and todo, a "#" in a name, console output
// turned into comments, a file that throws on load and one whose test
// calls process.exit(0).
func TestParseTAPReal(t *testing.T) {
	tests := []struct {
		file string
		want map[string]Outcome
	}{
		{"tap-node-mixed.txt", map[string]Outcome{
			"adds":                       Pass,
			"fails":                      Fail,
			"skipped":                    Skip,
			"todo one":                   Skip,
			"group":                      Fail,
			"group > inner ok":           Pass,
			"group > inner bad":          Fail,
			"suite > nested # with hash": Pass,
			"b ok":                       Pass,
		}},
		{"tap-node-crash.txt", map[string]Outcome{
			"c logs": Pass,
			// process.exit(0) in a test: node reports the file as passing
			// and its tests not at all, so they vanish.
			"e exits": "",
			"e never": "",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := ParseTAP(f)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, r, false, tt.want, "")
			if tt.file == "tap-node-crash.txt" && r.Count(Fail) != 1 {
				t.Errorf("want the file that throws on load as the one failing test, got %s", outcomes(r))
			}
		})
	}
}
