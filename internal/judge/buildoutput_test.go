package judge

import "testing"

func TestBuildOutput(t *testing.T) {
	for p, want := range map[string]bool{
		"node_modules/":             true,
		"pkg/__pycache__/m.pyc":     true,
		"target/debug/app":          true,
		"a/b.o":                     true,
		"notes/secret.txt":          false,
		".env":                      false,
		"data/customers.db":         false,
		"builder/readme.md":         false,
		"src/output/generated.json": false,
	} {
		if got := BuildOutput(p); got != want {
			t.Errorf("BuildOutput(%q) = %v, want %v", p, got, want)
		}
	}
}
