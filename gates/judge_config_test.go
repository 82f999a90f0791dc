package gates

import (
	"reflect"
	"strings"
	"testing"
)

func TestLoadConfigProtectAndFix(t *testing.T) {
	dir := writeConfig(t, `protect: ['checks/**', '*.golden']
unprotect: [test/fixtures/**]
gates:
  - name: fmt
    command: gofmt -w .
    fix: true
  - name: test
    command: go test ./...
`)
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"checks/**", "*.golden"}; !reflect.DeepEqual(c.Protect, want) {
		t.Errorf("Protect = %q, want %q", c.Protect, want)
	}
	if want := []string{"test/fixtures/**"}; !reflect.DeepEqual(c.Unprotect, want) {
		t.Errorf("Unprotect = %q, want %q", c.Unprotect, want)
	}
	if !c.Gates[0].Fix || c.Gates[1].Fix {
		t.Errorf("Fix = %v, %v; want true, false", c.Gates[0].Fix, c.Gates[1].Fix)
	}
	// A --gate override of a fixer keeps it a fixer.
	m := Merge(c.Gates, nil, []Gate{{Name: "fmt", Command: "gofmt -w ./pkg"}})
	if !m[0].Fix || m[0].Command != "gofmt -w ./pkg" {
		t.Errorf("merged = %+v", m[0])
	}
}

func TestLoadConfigFixMustBeBool(t *testing.T) {
	dir := writeConfig(t, "gates:\n  - name: fmt\n    command: gofmt -w .\n    fix: sometimes\n")
	_, err := LoadConfig(dir)
	if err == nil || !strings.Contains(err.Error(), ":4:") || !strings.Contains(err.Error(), "fix") {
		t.Fatalf("err = %v, want one naming line 4 and fix", err)
	}
}
