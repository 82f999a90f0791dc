package testreport

import (
	"os"
	"strings"
	"testing"
)

func TestParseJUnit(t *testing.T) {
	tests := []struct {
		name, in string
		want     string
		failed   bool
		wantErr  bool
		noteHas  string
	}{
		{"outcomes by child element", `<testsuites><testsuite name="s" tests="4" failures="1" errors="1">
			<testcase classname="a.B" name="ok"/>
			<testcase classname="a.B" name="f"><failure message="x">trace</failure></testcase>
			<testcase classname="a.B" name="e"><error message="x"/></testcase>
			<testcase classname="a.B" name="s"><skipped/></testcase>
			</testsuite></testsuites>`,
			"a.B.e=fail; a.B.f=fail; a.B.ok=pass; a.B.s=skip", false, false, ""},
		{"a bare testsuite root, as Surefire writes", `<?xml version="1.0"?><testsuite name="a.B"><testcase classname="a.B" name="t"/></testsuite>`,
			"a.B.t=pass", false, false, ""},
		{"nested suites and a case directly under testsuites", `<testsuites>
			<testcase classname="top" name="t0"/>
			<testsuite name="outer" failures="1"><testsuite name="inner" failures="1">
			<testcase classname="c" name="t1"><failure/></testcase></testsuite></testsuite></testsuites>`,
			"c.t1=fail; top.t0=pass", false, false, ""},
		{"a suite that counts failures it does not hold", `<testsuite name="s" failures="2"><testcase classname="c" name="t"><failure/></testcase></testsuite>`,
			"c.t=fail", true, false, `suite "s" counts 2 failures and errors but holds 1 failing test cases`},
		{"flaky then passed, and failed on every rerun", `<testsuite name="s" failures="1">
			<testcase classname="c" name="flaky"><flakyFailure message="m"><stackTrace>x</stackTrace></flakyFailure></testcase>
			<testcase classname="c" name="bad"><failure/><rerunFailure message="m"/></testcase></testsuite>`,
			"c.bad=fail; c.flaky=pass", false, false, ""},
		{"a failure element deeper than the case's children does not count", `<testsuite name="s">
			<testcase classname="c" name="t"><properties><failure/></properties></testcase></testsuite>`,
			"c.t=pass", false, false, ""},
		{"an empty or repeated classname gives the name alone", `<testsuite name="s">
			<testcase classname="" name="mod.test_collect"><error/></testcase>
			<testcase classname="x y" name="x y"/></testsuite>`,
			"mod.test_collect=fail; x y=pass", false, false, ""},
		{"a case listed twice keeps the worse outcome", `<testsuite name="s">
			<testcase classname="c" name="t"><error/></testcase><testcase classname="c" name="t"/></testsuite>`,
			"c.t=fail", false, false, "c.t is listed more than once"},
		{"documents one after another", `<?xml version="1.0"?><testsuite name="A"><testcase classname="A" name="a"/></testsuite>
<?xml version="1.0" encoding="UTF-8"?><testsuite name="B"><testcase classname="B" name="b"><skipped/></testcase></testsuite>`,
			"A.a=pass; B.b=skip", false, false, ""},
		{"characters XML forbids, raw and as references", "<testsuite name=\"s\"><testcase classname=\"c\" name=\"t\"><system-out>\x1b[31m &#27;[0m &#x1B; &#0;</system-out></testcase></testsuite>",
			"c.t=pass", false, false, ""},
		{"a truncated report", `<testsuite name="s"><testcase classname="c" name="a"/><testcase classname="c" name="b"><failure>`,
			"c.a=pass", true, true, "not well-formed XML"},
		{"not XML at all", `FAILED tests/test_x.py::test_y`, "", false, false, "holds no test case"},
		{"an empty file", ``, "", false, false, "holds no test case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseJUnit(strings.NewReader(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
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

// TestParseJUnitGroups checks the group, which maps a test to a file: the
// file attribute, else the classname unless it only repeats the name.
func TestParseJUnitGroups(t *testing.T) {
	r, err := ParseJUnit(strings.NewReader(`<testsuite name="s">
		<testcase classname="tests.test_calc" name="test_add" file="tests/test_calc.py"/>
		<testcase classname="tests.test_calc" name="test_sub"/>
		<testcase classname="calc adds" name="calc adds"/></testsuite>`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"tests.test_calc.test_add": "tests/test_calc.py", "tests.test_calc.test_sub": "tests.test_calc", "calc adds": ""}
	for id, group := range want {
		if got, ok := r.Lookup(id); !ok || got.Group != group {
			t.Errorf("%s: group %q (found %v), want %q", id, got.Group, ok, group)
		}
	}
}

// TestParseJUnitReal checks what matters in real reports (pytest 7.2.1,
// jest-junit 17, node 20's junit reporter) and the hand-written Surefire
// one.
func TestParseJUnitReal(t *testing.T) {
	tests := []struct {
		file   string
		failed bool
		want   map[string]Outcome
	}{
		{"junit-pytest.xml", false, map[string]Outcome{
			"tests.test_calc.test_add":              Pass,
			"tests.test_calc.test_param[2-2-5]":     Fail,
			"tests.test_calc.test_xfail":            Skip, // pytest writes xfail as skipped
			"tests.test_calc.test_xpass_strict":     Fail,
			"tests.test_calc.test_fixture_error":    Fail, // an error in setup
			"tests.test_calc.TestClass.test_method": Pass,
			"tests.test_collect":                    Fail, // the collection error
		}},
		{"junit-pytest-collect.xml", false, map[string]Outcome{"tests.test_collect": Fail, "tests.test_calc.test_add": ""}},
		{"junit-jest.xml", false, map[string]Outcome{"calc subtracts": Fail, "calc nested works": Pass, "calc skipped one": Skip, "top level": Pass}},
		{"junit-jest-suite-errors.xml", false, map[string]Outcome{"Test suite failed to run.src/broken.test.js": Fail}},
		{"junit-node.xml", false, map[string]Outcome{"test.fails": Fail, "test.inner bad": Fail, "test.todo one": Skip}},
		{"junit-surefire.xml", false, map[string]Outcome{
			"com.example.CalcTest.flakyClock":         Pass,
			"com.example.CalcTest.subtracts":          Fail,
			"com.example.CalcTest.divides":            Fail,
			"com.example.CalcTest.powers":             Skip,
			"com.example.CalcTest$Negative.keepsSign": Fail,
			"com.example.ParserTest.parsesNumbers":    Pass,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := ParseJUnit(f)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, r, tt.failed, tt.want, "")
		})
	}
}

// The JUnit files of one run (one per class, as Surefire writes them) merge
// into one report: a test listed twice keeps its worse outcome, and one
// file that shows a failure outside its tests fails the whole.
func TestMergeJUnitFiles(t *testing.T) {
	parse := func(s string) Report {
		t.Helper()
		r, _ := ParseJUnit(strings.NewReader(s))
		return r
	}
	a := parse(`<testsuite name="a.A"><testcase classname="a.A" name="t1"/><testcase classname="a.A" name="t2"/></testsuite>`)
	b := parse(`<testsuite name="a.B" failures="1"><testcase classname="a.B" name="t"><failure/></testcase>` +
		`<testcase classname="a.A" name="t2"><failure/></testcase></testsuite>`)
	m := Merge(KindJUnit, a, b)
	if got, want := outcomes(m), "a.A.t1=pass; a.A.t2=fail; a.B.t=fail"; got != want {
		t.Errorf("merged = %s, want %s", got, want)
	}
	if m.Failed || m.Kind != KindJUnit || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "a.A.t2") {
		t.Errorf("merged Failed = %v, Kind = %q, Notes = %q; want one note about a.A.t2", m.Failed, m.Kind, m.Notes)
	}
	bad := parse(`<testsuite name="s" failures="2"><testcase classname="c" name="x"/></testsuite>`)
	if m := Merge(KindJUnit, b, bad); !m.Failed || len(m.Tests) != 3 || !strings.Contains(m.Notes[0], `suite "s" counts 2`) {
		t.Errorf("merged with a failed file: Failed = %v, %d tests, notes %q; want failed, 3, its reason first", m.Failed, len(m.Tests), m.Notes)
	}
}
