package canary

import "testing"

func TestPyName(t *testing.T) {
	for id, want := range map[string]string{
		"test_calc.TestCalc.test_sub":      "test_sub",
		"tests/test_x.py::TestX::test_a":   "test_a",
		"test_calc.TestCalc.test_sub[1]":   "",
		"calc TestSub":                     "",
		"suite > adds":                     "",
		"m.Planxcanaryabcp0.test_Fails1":   "",
		"test_calc.TestCalc.testSomething": "testSomething",
	} {
		if got := pyName(id); got != want {
			t.Errorf("pyName(%q) = %q, want %q", id, got, want)
		}
	}
}
