package planparse

import (
	"slices"
	"strings"
	"testing"
)

// A line that was meant as a task and whose ID is malformed is warned
// about on its line; words that begin with T, or with T and a sign but no
// digit, are not.
func TestMalformedTaskIDWarns(t *testing.T) {
	src := "---\ntopic: x\n---\n- [ ] T001 one\n- [ ] T01a two\n- [ ] T 003 three\n- [ ] T$(rm -rf x) four\n" +
		"- [ ] T1234567 five\n- [ ] Test the thing\n- [ ] T-shirt print\n- [ ] Task list\n"
	p, err := Parse("plan.md", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, d := range p.Diagnostics {
		if d.Severity == SeverityWarning && strings.Contains(d.Message, "is not a task ID") {
			got = append(got, d.Line)
		}
	}
	if want := []int{5, 6, 7, 8}; !slices.Equal(got, want) {
		t.Fatalf("warnings on lines %v, want %v: %+v", got, want, p.Diagnostics)
	}
	if len(p.Tasks) != 1 {
		t.Fatalf("%d tasks, want 1", len(p.Tasks))
	}
}
