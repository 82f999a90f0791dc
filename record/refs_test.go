package record

import "testing"

func TestRunRefs(t *testing.T) {
	if got := RunRef("20260101-000000-abcdef", "work/T003"); got != "refs/planx/runs/20260101-000000-abcdef/work/T003" {
		t.Errorf("RunRef = %q", got)
	}
	for _, c := range []struct {
		ref, id, rest string
		ok            bool
	}{
		{"refs/planx/runs/r1/base", "r1", "base", true},
		{"refs/planx/runs/r1/stops/2-T003", "r1", "stops/2-T003", true},
		{"refs/planx/runs/r1", "", "", false},
		{"refs/planx/runs//base", "", "base", false},
		{"refs/heads/main", "", "", false},
	} {
		id, rest, ok := ParseRunRef(c.ref)
		if ok != c.ok || (ok && (id != c.id || rest != c.rest)) {
			t.Errorf("ParseRunRef(%q) = %q, %q, %v", c.ref, id, rest, ok)
		}
	}
}
