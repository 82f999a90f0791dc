package advsuite

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSameRefusal checks the cross-check of a case's run in a wave with
// its run alone: the same outcome refused for another reason fails; what
// a wave adds to a refusal (the slot it kept, the canaries' fresh names)
// does not make a reason another, and another outcome is sameVerdict's.
func TestSameRefusal(t *testing.T) {
	alone := caseRun{outcome: caught, why: "the task weakened the judge: modified plan.md (the plan)"}
	for _, c := range []struct {
		wave caseRun
		bad  bool
	}{
		{caseRun{outcome: caught, why: alone.why}, false},
		{caseRun{outcome: caught, why: alone.why + "; its work is kept in the work tree $CASE/repo/.git/planx/worktrees/s1/T001"}, false},
		{caseRun{outcome: caught, why: "the gate failed: go test ./..."}, true},
		{caseRun{outcome: committedCheat}, false},
	} {
		got := sameRefusal(c.wave, alone)
		if (got != "") != c.bad {
			t.Errorf("sameRefusal(%+v, alone): %q, want a complaint: %v", c.wave, got, c.bad)
		}
		if c.bad && !strings.Contains(got, "in a wave as alone, but refused otherwise") {
			t.Errorf("sameRefusal says %q", got)
		}
	}
	if got := sameRefusal(caseRun{outcome: caught, why: "the canary Planxcanary0123p7 passed"},
		caseRun{outcome: caught, why: "the canary Planxcanary4567p2 passed"}); got != "" {
		t.Errorf("the canaries' names made the refusals differ: %s", got)
	}
}

// TestTablePath checks where each group writes PLANX_ADV_TABLE's table.
func TestTablePath(t *testing.T) {
	for p, want := range map[string]string{
		"t.txt":                    "t.gopt.txt",
		"/tmp/adv/table":           "/tmp/adv/table.gopt",
		filepath.Join("a.b", "t"):  filepath.Join("a.b", "t.gopt"),
		filepath.Join("d", "t.md"): filepath.Join("d", "t.gopt.md"),
	} {
		if got := tablePath(p, "gopt"); got != want {
			t.Errorf("tablePath(%q, gopt) = %q, want %q", p, got, want)
		}
	}
}
