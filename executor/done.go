package executor

import (
	"context"

	"github.com/planx-dev/planx/internal/linediff"
	"github.com/planx-dev/planx/planfile"
	"github.com/planx-dev/planx/runplan"
)

// selectTasks decides which tasks the run executes: leaf tasks (a group's
// work is its sub-tasks) that git does not have as done, optional ones only
// with --optional. --all runs every leaf again; --accept-drift runs a done
// task whose text changed instead of stopping on it.
func (r *runner) selectTasks(ctx context.Context) (*runplan.Selection, error) {
	done, stale, err := r.pf.Done(ctx, r.repo, r.Plan)
	if err != nil {
		return nil, err
	}
	r.done = done
	s := &runplan.Selection{}
	for _, t := range r.Plan.Order() {
		if len(t.Children) > 0 {
			continue
		}
		if t.Optional && !r.o.Optional {
			s.Optional = append(s.Optional, t)
			continue
		}
		c, changed := stale[t.ID]
		switch {
		case r.o.All:
			s.Run = append(s.Run, t)
		case r.done[t.ID]:
			s.Done++
		case changed && r.o.AcceptDrift:
			s.Run = append(s.Run, t)
		case changed:
			// How its text changed since its commit.
			s.Drift = append(s.Drift, planfile.Drift{Task: t.ID, Label: t.OwnLabel(), Kind: "changed", Line: t.Line, Commit: string(c.SHA),
				Diff: linediff.Lines(r.pf.BodyAt(ctx, r.repo, c.SHA, t.ID), t.Body)})
		case r.TickedByHand(t):
			s.ByHand = append(s.ByHand, t)
			r.done[t.ID] = true
			s.Done++
		default:
			s.Run = append(s.Run, t)
		}
	}
	if err := r.o.Subset.Narrow(r.Plan, s, r.done); err != nil {
		return nil, err
	}
	return s, nil
}
