package testreport

import (
	"os"
	"strings"
	"testing"
)

const utOK = "\n----------------------------------------------------------------------\nRan %d tests in 0.001s\n\nOK\n"

func TestParseUnittest(t *testing.T) {
	tests := []struct {
		name, in string
		want     string
		failed   bool
		noteHas  string
	}{
		{"3.11 lines", "test_add (test_calc.TestCalc.test_add) ... ok\ntest_x (pkg.test_m.TestM.test_x) ... skipped 'no db'\n" +
			"\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nOK (skipped=1)\n",
			"pkg.test_m.TestM.test_x=skip; test_calc.TestCalc.test_add=pass", false, ""},
		{"the older form without the method in brackets", "test_add (test_calc.TestCalc) ... ok\ntest_b (test_calc.TestCalc) ... ok\n" + strings.Replace(utOK, "%d", "2", 1),
			"test_calc.TestCalc.test_add=pass; test_calc.TestCalc.test_b=pass", false, ""},
		{"a docstring moves the dots to the next line", "test_doc (m.C.test_doc)\nAdds (two) numbers. ... ok\n" + strings.Replace(utOK, "%d", "1", 1),
			"m.C.test_doc=pass", false, ""},
		{"output without a newline before the result", "test_p (m.C.test_p) ... hello from the testok\n" + strings.Replace(utOK, "%d", "1", 1),
			"m.C.test_p=pass", false, ""},
		{"output lines between the dots and the result", "test_p (m.C.test_p) ... \nline one\nline two\nok\n" + strings.Replace(utOK, "%d", "1", 1),
			"m.C.test_p=pass", false, ""},
		{"the FAIL section overrides output that ends in ok", "test_p (m.C.test_p) ... all ok\nFAIL\n\n" +
			"======================================================================\nFAIL: test_p (m.C.test_p)\n----------------------------------------------------------------------\nAssertionError\n\n" +
			"----------------------------------------------------------------------\nRan 1 test in 0.001s\n\nFAILED (failures=1)\n",
			"m.C.test_p=fail", false, ""},
		{"expected failure is skipped, unexpected success fails", "test_a (m.C.test_a) ... expected failure\ntest_b (m.C.test_b) ... unexpected success\n" +
			"\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nFAILED (expected failures=1, unexpected successes=1)\n",
			"m.C.test_a=skip; m.C.test_b=fail", false, ""},
		{"a failing subtest fails its test", "test_s (m.C.test_s) ... \n  test_s (m.C.test_s) (i=2) ... FAIL\ntest_t (m.C.test_t) ... ok\n" +
			"\n======================================================================\nFAIL: test_s (m.C.test_s) (i=2)\n" +
			"----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n",
			"m.C.test_s=fail; m.C.test_t=pass", false, ""},
		{"a skip reason in double quotes", "test_a (m.C.test_a) ... skipped \"can't\"\ntest_b (m.C.test_b) ... ok\n" + strings.Replace(utOK, "%d", "2", 1),
			"m.C.test_a=skip; m.C.test_b=pass", false, ""},
		{"no summary: the process died", "test_a (m.C.test_a) ... ok\ntest_b (m.C.test_b) ... ",
			"m.C.test_a=pass; m.C.test_b=fail", true, "the output stops during m.C.test_b"},
		{"no summary after the last result", "test_a (m.C.test_a) ... ok\n",
			"m.C.test_a=pass", true, "no unittest summary"},
		{"FAILED with no failing test", "test_a (m.C.test_a) ... ok\n\n----------------------------------------------------------------------\nRan 1 test in 0.001s\n\nFAILED (errors=1)\n",
			"m.C.test_a=pass", true, "unittest says FAILED (errors=1) but no test failed"},
		{"Ran counts more tests than were read", "test_a (m.C.test_a) ... ok\n" + strings.Replace(utOK, "%d", "3", 1),
			"m.C.test_a=pass", true, "unittest ran 3 tests but 1 were read"},
		{"no tests", "\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n", "", false, ""},
		{"a module that failed to import", "test_gone (unittest.loader._FailedTest.test_gone) ... ERROR\n\n" +
			"----------------------------------------------------------------------\nRan 1 test in 0.001s\n\nFAILED (errors=1)\n",
			"unittest.loader._FailedTest.test_gone=fail", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseUnittest(strings.NewReader(tt.in))
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

func TestUnittestGroups(t *testing.T) {
	tests := []struct{ name, where, id, group string }{
		{"test_add", "pkg.test_calc.TestCalc.test_add", "pkg.test_calc.TestCalc.test_add", "pkg.test_calc"},
		{"test_add", "pkg.test_calc.TestCalc", "pkg.test_calc.TestCalc.test_add", "pkg.test_calc"},
		{"setUpClass", "test_setup.TestBrokenSetup", "test_setup.TestBrokenSetup.setUpClass", "test_setup"},
		{"setUpModule", "test_modfix", "test_modfix.setUpModule", "test_modfix"},
		{"test_gone", "unittest.loader._FailedTest.test_gone", "unittest.loader._FailedTest.test_gone", "test_gone"},
		{"test_gone", "unittest.loader._FailedTest", "unittest.loader._FailedTest.test_gone", "test_gone"},
	}
	for _, tt := range tests {
		id, group := utID(tt.name, tt.where)
		if id != tt.id || group != tt.group {
			t.Errorf("utID(%q, %q) = %q, %q; want %q, %q", tt.name, tt.where, id, group, tt.id, tt.group)
		}
	}
}

// TestParseUnittestReal checks the same project run by Python 3.10, 3.11,
// 3.12.1 and 3.13 (testdata/make-fixtures.sh): each prints it differently
// and each must read the same, except that 3.12.1 names no skipped test.
func TestParseUnittestReal(t *testing.T) {
	mixed := map[string]Outcome{
		"test_calc.TestCalc.test_add":                 Pass,
		"test_calc.TestCalc.test_doc":                 Pass, // docstring, and output before "ok"
		"test_calc.TestCalc.test_error":               Fail,
		"test_calc.TestCalc.test_expected":            Skip,
		"test_calc.TestCalc.test_sub":                 Fail,
		"test_calc.TestCalc.test_subtests":            Fail,
		"test_calc.TestCalc.test_unexpected":          Fail,
		"test_calc.TestOther.test_fine":               Pass,
		"test_setup.TestBrokenSetup.setUpClass":       Fail,
		"test_setup.TestBrokenSetup.test_a":           "",
		"unittest.loader._FailedTest.test_importfail": Fail,
	}
	more := map[string]Outcome{
		"test_modfix.setUpModule":           Fail,
		"test_modfix.TestM.test_m":          "",
		"test_more.TestMsgSub.test_sub_msg": Fail,
		"test_more.TestMsgSub.test_sub_ok":  Pass,
		"test_more.TestSkippedClass.test_a": Skip,
	}
	tests := []struct {
		file   string
		failed bool
		want   map[string]Outcome
		why    string
	}{
		{"unittest-mixed-3.10.txt", false, mixed, ""},
		{"unittest-mixed-3.11.txt", false, mixed, ""},
		{"unittest-mixed-3.12.txt", false, mixed, ""},
		{"unittest-mixed-3.13.txt", false, mixed, ""},
		{"unittest-more-3.6.txt", false, more, ""},
		{"unittest-more-3.11.txt", false, more, ""},
		{"unittest-more-3.12.txt", false, more, ""},
		{"unittest-ok.txt", false, map[string]Outcome{"test_ok.TestOK.test_print_nonl": Pass, "test_ok.TestOK.test_subs": Pass}, ""},
		{"unittest-exit.txt", true, map[string]Outcome{"test_ok.TestExit.test_z_exits": Fail, "test_ok.TestOK.test_one": ""}, "the output stops during test_ok.TestExit.test_z_exits"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := ParseUnittest(f)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, r, tt.failed, tt.want, tt.why)
			if strings.Contains(tt.file, "mixed") && !strings.Contains(tt.file, "3.12") {
				if got, _ := r.Lookup("test_calc.TestCalc.test_skipped"); got.Outcome != Skip {
					t.Errorf("test_skipped = %q, want skip", got.Outcome)
				}
			}
		})
	}
}
