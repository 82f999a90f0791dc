package advsuite

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestExpectCases checks that expect.txt names no case testdata/agents
// lacks (each pass checks the other way, that each case it runs is named).
func TestExpectCases(t *testing.T) {
	cases, err := loadCases(filepath.Join("testdata", "agents"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := readExpect(filepath.Join("testdata", "expect.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range want {
		if !slices.ContainsFunc(cases, func(k *kase) bool { return k.name == name }) {
			t.Errorf("expect.txt names %s, which testdata/agents does not have", name)
		}
	}
}
