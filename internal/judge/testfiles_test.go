package judge

import "testing"

func TestMatchGlob(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"*_test.go", "pkg/x/a_test.go", true},
		{"*_test.go", "pkg/x/a.go", false},
		{"test_*.py", "src/test_calc.py", true},
		{"*_test.py", "calc_test.py", true},
		{"*.test.*", "web/app.test.tsx", true},
		{"*.spec.*", "web/app.spec.js", true},
		{"*.spec.*", "web/spec.js", false},
		{"tests/", "tests/mul.sh", true},
		{"tests/", "a/tests/b/c.py", true},
		{"tests/", "tests", false},        // the directory name itself is a file here
		{"tests/", "mytests/x.sh", false}, // a component, not a suffix
		{"__tests__/", "src/__tests__/a.js", true},
		{"checks/**", "checks/a/b.sh", true},
		{"checks/**", "checks/b.sh", true},
		{"checks/**", "x/checks/b.sh", false},
		{"**/golden/*.txt", "a/b/golden/x.txt", true},
		{"**/golden/*.txt", "golden/x.txt", true},
		{"docs/*.md", "docs/a/b.md", false},
	}
	for _, c := range cases {
		if got := MatchGlob(c.pattern, c.path); got != c.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}
