package testreport

import (
	"slices"
	"strings"
	"testing"
)

func TestReadFailures(t *testing.T) {
	cases := []struct {
		name, out string
		tests     []string // Display of each
		lines     []string
	}{
		{"go", "--- FAIL: TestSub (0.00s)\n    sub_test.go:7: Sub(2, 1) = 1, want 2\n--- FAIL: TestDiv/zero (0.00s)\nFAIL\nFAIL\tcalc\t0.004s\nok  \tcalc/other\t0.002s\nFAIL\n",
			[]string{"TestSub (calc)", "TestDiv/zero (calc)"}, nil},
		{"go cut short", "--- FAIL: TestSub (0.00s)\n", []string{"TestSub"}, nil},
		{"unittest 3.11", "FAIL: test_sub (test_calc.CalcTest.test_sub)\n----\nERROR: test_div (test_calc.CalcTest.test_div)\n",
			[]string{"test_sub (test_calc.CalcTest)", "test_div (test_calc.CalcTest)"}, nil},
		{"unittest old", "FAIL: test_sub (test_calc.CalcTest)\n", []string{"test_sub (test_calc.CalcTest)"}, nil},
		{"pytest", "FAILED tests/test_calc.py::test_sub - assert 1 == 2\n", []string{"test_sub (tests/test_calc.py)"}, nil},
		{"tap", "ok 1 - adds\nnot ok 2 - subtracts # fails\n  not ok 1 - inner\n", []string{"subtracts", "inner"}, nil},
		{"other", "building\nError: one\nfine\nassertion x\n", nil, []string{"Error: one", "assertion x"}},
		{"many", strings.Repeat("error a\n", 3) + strings.Repeat("error b\n", 5) + "error c\n", nil,
			[]string{"error a", "error a", "error a", "…", "error b", "error b", "error c"}},
		{"nothing", "all good\n", nil, nil},
	}
	for _, c := range cases {
		f, err := ReadFailures(strings.NewReader(c.out))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ft := range f.Tests {
			got = append(got, Display(ft))
		}
		if !slices.Equal(got, c.tests) || !slices.Equal(f.Lines, c.lines) {
			t.Errorf("%s: tests %q lines %q, want %q %q", c.name, got, f.Lines, c.tests, c.lines)
		}
	}
}

func TestReadFailuresGoJSON(t *testing.T) {
	out := `{"Action":"run","Package":"calc","Test":"TestSub"}
{"Action":"output","Package":"calc","Test":"TestSub","Output":"--- FAIL: TestSub (0.00s)\n"}
{"Action":"fail","Package":"calc","Test":"TestSub","Elapsed":0}
{"Action":"run","Package":"calc","Test":"TestAdd"}
{"Action":"pass","Package":"calc","Test":"TestAdd","Elapsed":0}
{"Action":"fail","Package":"calc","Elapsed":0.01}
`
	f, err := ReadFailures(strings.NewReader(out))
	if err != nil || len(f.Tests) != 1 || Display(f.Tests[0]) != "TestSub (calc)" || f.Lines != nil {
		t.Fatalf("%+v %v", f, err)
	}
}

func TestReadFailuresUnaccounted(t *testing.T) {
	cases := []struct {
		name, out string
		want      bool
	}{
		{"go tests named", "--- FAIL: TestSub (0.00s)\nFAIL\nFAIL\tcalc\t0.004s\n", false},
		{"go build failed", "--- FAIL: TestSub (0.00s)\nFAIL\tcalc\t0.004s\nFAIL\tcalc/other [build failed]\n", true},
		{"go timeout", "panic: test timed out after 1s\n\trunning tests:\n\t\tTestSlow (1s)\nFAIL\tcalc\t1.002s\n", true},
		{"go-json package failure", `{"Action":"run","Package":"calc","Test":"TestSub"}
{"Action":"fail","Package":"calc","Test":"TestSub","Elapsed":0}
{"Action":"fail","Package":"calc","Elapsed":0.01}
{"Action":"output","Package":"calc/other","Output":"FAIL\tcalc/other [build failed]\n"}
{"Action":"fail","Package":"calc/other","Elapsed":0}
`, true},
		{"tap", "not ok 2 - subtracts\n", false},
	}
	for _, c := range cases {
		f, err := ReadFailures(strings.NewReader(c.out))
		if err != nil {
			t.Fatal(err)
		}
		if f.Unaccounted != c.want {
			t.Errorf("%s: Unaccounted %v with %d tests named, want %v", c.name, f.Unaccounted, len(f.Tests), c.want)
		}
	}
}
