package runplan

import (
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/linediff"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/planparse"
)

// Choice is what decides which tasks a run executes, besides the plan:
// what git has as done and the flags that widen or narrow the run.
type Choice struct {
	// Done are the tasks git has as done; Select adds those ticked by hand.
	Done map[planparse.TaskID]bool
	// Stale are done tasks whose text changed since their commit (that
	// commit), and Was their text at it, to show how it changed.
	Stale map[planparse.TaskID]gitops.Commit
	Was   map[planparse.TaskID]string

	All, Optional, AcceptDrift bool // --all, --optional, --accept-drift
	Subset                     Subset
}

// Select decides which tasks the run executes: leaf tasks (a group's
// work is its sub-tasks) that git does not have as done, optional ones only
// with --optional or when --only names them. --all runs every leaf again; --accept-drift runs a done
// task whose text changed instead of stopping on it. A task ticked by hand
// is added to c.Done.
func (s *Setup) Select(c Choice) (*Selection, error) {
	sel := &Selection{}
	named := c.Subset.Named(s.Plan)
	for _, t := range s.Plan.Order() {
		if len(t.Children) > 0 {
			continue
		}
		if t.Optional && !c.Optional && !named[t.ID] {
			sel.Optional = append(sel.Optional, t)
			continue
		}
		commit, changed := c.Stale[t.ID]
		switch {
		case c.All:
			sel.Run = append(sel.Run, t)
		case c.Done[t.ID]:
			sel.Done++
		case changed && c.AcceptDrift:
			sel.Run = append(sel.Run, t)
		case changed:
			// How its text changed since its commit.
			sel.Drift = append(sel.Drift, planfile.Drift{Task: t.ID, Label: t.OwnLabel(), Kind: "changed", Line: t.Line, Commit: string(commit.SHA),
				Diff: linediff.Lines(c.Was[t.ID], t.Body)})
		case s.TickedByHand(t):
			sel.ByHand = append(sel.ByHand, t)
			c.Done[t.ID] = true
			sel.Done++
		default:
			sel.Run = append(sel.Run, t)
		}
	}
	if err := c.Subset.Narrow(s.Plan, sel, c.Done); err != nil {
		return nil, err
	}
	return sel, nil
}
