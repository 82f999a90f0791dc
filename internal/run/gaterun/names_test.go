package gaterun

import "testing"

func TestNamesTest(t *testing.T) {
	for _, c := range []struct {
		id, name string
		want     bool
	}{
		{"calc TestGreet", "TestGreet", true},
		{"calc TestGreet/ann", "TestGreet", true},
		{"calc TestGreeting", "TestGreet", false},
		{"example.com/m/calc TestSub", "calc TestSub", true},
		{"test_calc.TestCalc.test_sub", "test_sub", true},
		{"test_calc.TestCalc.test_sub", "TestCalc.test_sub", true},
		{"test_calc.TestCalc.test_sub_more", "test_sub", false},
		{"tests/test_x.py::test_a", "test_a", true},
		{"suite > adds two numbers", "adds two numbers", true},
		{"suite > adds two numbers twice", "adds two numbers", false},
		{"TestGreet", "TestGreet", true},
		{"calc TestGreet", "", false},
	} {
		if got := NamesTest(c.id, c.name); got != c.want {
			t.Errorf("NamesTest(%q, %q) = %v, want %v", c.id, c.name, got, c.want)
		}
	}
}
