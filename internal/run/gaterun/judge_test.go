package gaterun

import (
	"testing"

	"github.com/planx-dev/planx/planparse"
)

// A test of a group the task declared a test file of may vanish: the
// group is the file, its directory (a Go package), its Python module or a
// test inside it, or the Go package under the module's path. Declared
// files that are not tests declare no group; no declared test file
// declares none, not even a runner's unnamed group.
func TestDeclaredGroup(t *testing.T) {
	d := Declared("example.com/m", []planparse.File{{Path: "pkg/calc_test.go"}, {Path: "tests/test_calc.py"}, {Path: "main.go"}})
	for group, want := range map[string]bool{
		"pkg":                         true,
		"example.com/m/pkg":           true,
		"pkg/calc_test.go":            true,
		"tests.test_calc":             true,
		"tests.test_calc.TestCalc":    true,
		"tests/test_calc.py":          true,
		"":                            true,
		"other":                       false,
		"example.com/m":               false,
		"tests.test_calcs":            false,
		"example.com/m/pkg/internals": false,
	} {
		if got := d.Group(group); got != want {
			t.Errorf("Group(%q) = %v, want %v", group, got, want)
		}
	}
	root := Declared("example.com/m", []planparse.File{{Path: "calc_test.go"}})
	if !root.Group("example.com/m") {
		t.Error("a test file at the module's root declares the module's package")
	}
	var none DeclaredTests
	if none.Group("") || none.Group("pkg") || Declared("", []planparse.File{{Path: "main.go"}}).Group("") {
		t.Error("no declared test file declares no group")
	}
}
