package judge

import "testing"

func TestIsCode(t *testing.T) {
	for p, want := range map[string]bool{
		"calc.go": true, "internal/x/y.go": true, "calc_test.go": false, "testdata/gen.go": false,
		"calc.py": true, "pkg/util.py": true, "test_calc.py": false, "tests/helpers.py": false, "conftest.py": false,
		"src/calc.js": true, "calc.test.js": false, "lib/x.ts": true, "__tests__/x.js": false,
		"cases.json": false, "Makefile": false, "go.mod": false, "README.md": false, "pytest.ini": false,
	} {
		if got := IsCode(p); got != want {
			t.Errorf("IsCode(%q) = %v, want %v", p, got, want)
		}
	}
}
