package runplan

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// TestSelect checks which tasks a run executes, from literal done and
// stale sets and no repository: a done task is counted, a changed one is
// drift unless --accept-drift, a hand tick is done, an optional task waits
// for --optional and --all runs every leaf.
func TestSelect(t *testing.T) {
	src := `# Plan

- [ ] 1. Group
  - [ ] 1.1 Done leaf
  - [ ] 1.2 Changed leaf
- [x] 2. Ticked by hand
- [ ] 3. To run
- [ ]* 4. Optional
`
	plan, err := planparse.Parse("tasks.md", []byte(src), planparse.Options{})
	if err != nil || plan.Err() != nil {
		t.Fatal(err, plan.Err())
	}
	id := map[string]planparse.TaskID{}
	for _, tk := range plan.Tasks {
		id[tk.Label] = tk.ID
	}
	labels := func(ts []*planparse.Task) string {
		var ls []string
		for _, tk := range ts {
			ls = append(ls, tk.Label)
		}
		return strings.Join(ls, ",")
	}
	choice := func() Choice {
		return Choice{
			Done:  map[planparse.TaskID]bool{id["1.1"]: true},
			Stale: map[planparse.TaskID]gitops.Commit{id["1.2"]: {SHA: "abc123"}},
			Was:   map[planparse.TaskID]string{id["1.2"]: "old text"},
		}
	}
	s := &Setup{Plan: plan}

	c := choice()
	sel, err := s.Select(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := labels(sel.Run); got != "3" {
		t.Errorf("runs %q, want 3", got)
	}
	if sel.Done != 2 || labels(sel.ByHand) != "2" || !c.Done[id["2"]] {
		t.Errorf("done %d, by hand %q, hand tick in done %v; want 2, 2, true", sel.Done, labels(sel.ByHand), c.Done[id["2"]])
	}
	if labels(sel.Optional) != "4" {
		t.Errorf("optional %q, want 4", labels(sel.Optional))
	}
	if len(sel.Drift) != 1 || sel.Drift[0].Task != id["1.2"] || sel.Drift[0].Commit != "abc123" || sel.Drift[0].Diff == "" {
		t.Errorf("drift %+v, want 1.2 changed since abc123 with a diff", sel.Drift)
	}

	c = choice()
	c.AcceptDrift, c.Optional = true, true
	if sel, err = s.Select(c); err != nil {
		t.Fatal(err)
	}
	if got := labels(sel.Run); got != "1.2,3,4" || len(sel.Drift) != 0 {
		t.Errorf("with --accept-drift --optional runs %q (drift %d), want 1.2,3,4 (0)", got, len(sel.Drift))
	}

	c = choice()
	c.All = true
	if sel, err = s.Select(c); err != nil {
		t.Fatal(err)
	}
	if got := labels(sel.Run); got != "1.1,1.2,2,3" {
		t.Errorf("with --all runs %q, want 1.1,1.2,2,3", got)
	}
}
