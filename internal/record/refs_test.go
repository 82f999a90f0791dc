package record

import "testing"

func TestRunRefs(t *testing.T) {
	if got := RunRef("20260101-000000-abcdef", "work/T003"); got != "refs/planx/runs/20260101-000000-abcdef/work/T003" {
		t.Errorf("RunRef = %q", got)
	}
	for got, want := range map[string]string{
		HeadRef("r1"):           "refs/planx/runs/r1/head",
		AbortedRef("r1"):        "refs/planx/runs/r1/aborted",
		WorkRef("r1", "T003"):   "refs/planx/runs/r1/work/T003",
		WaveRef("r1"):           "refs/planx/runs/r1/wave",
		WorktreeRef("r1", ""):   "refs/planx/runs/r1/worktrees/",
		WorktreeRef("r1", "s1"): "refs/planx/runs/r1/worktrees/s1",
	} {
		if got != want {
			t.Errorf("ref name %q, want %q", got, want)
		}
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
