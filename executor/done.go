package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/linediff"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planfile"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/progress"
)

// selection is what a run does with each task of the plan.
type selection struct {
	run      []*planparse.Task // to execute, in order
	done     int               // leaf tasks git (or a hand tick) says are done
	byHand   []*planparse.Task // ticked in the plan without a task commit
	optional []*planparse.Task // optional tasks left out (no --optional)
	outside  []*planparse.Task // left out by --only, --from, --to or --phase
	drift    []planfile.Drift  // done tasks whose text changed since their commit
}

// selectTasks decides which tasks the run executes: leaf tasks (a group's
// work is its sub-tasks) that git does not have as done, optional ones only
// with --optional. --all runs every leaf again; --accept-drift runs a done
// task whose text changed instead of stopping on it.
func (r *runner) selectTasks(ctx context.Context) (*selection, error) {
	done, stale, err := r.pf.Done(ctx, r.repo, r.plan)
	if err != nil {
		return nil, err
	}
	r.done = done
	s := &selection{}
	for _, t := range r.plan.Order() {
		if len(t.Children) > 0 {
			continue
		}
		if t.Optional && !r.o.Optional {
			s.optional = append(s.optional, t)
			continue
		}
		c, changed := stale[t.ID]
		switch {
		case r.o.All:
			s.run = append(s.run, t)
		case r.done[t.ID]:
			s.done++
		case changed && r.o.AcceptDrift:
			s.run = append(s.run, t)
		case changed:
			// How its text changed since its commit.
			s.drift = append(s.drift, planfile.Drift{Task: t.ID, Label: t.OwnLabel(), Kind: "changed", Line: t.Line, Commit: string(c.SHA),
				Diff: linediff.Lines(r.pf.BodyAt(ctx, r.repo, c.SHA, t.ID), t.Body)})
		case r.tickedByHand(t):
			s.byHand = append(s.byHand, t)
			r.done[t.ID] = true
			s.done++
		default:
			s.run = append(s.run, t)
		}
	}
	if err := r.o.Subset.narrow(r.plan, s, r.done); err != nil {
		return nil, err
	}
	return s, nil
}

// driftError stops a run on the done tasks whose text changed (s.drift)
// in the plan at planRel.
func (s *selection) driftError(planRel string) error {
	var b strings.Builder
	for _, d := range s.drift {
		b.WriteString("\n  " + textsafe.Block(d.String()))
	}
	return fmt.Errorf("%w: %s: %d done task(s) changed since their commit:%s\nrestore the text, pass --accept-drift to run the changed task(s) again, or --all to run every task again",
		ErrDrift, planRel, len(s.drift), b.String())
}

// report tells what the run leaves out and why.
func (s *selection) report(out *progress.Progress) {
	if len(s.byHand) <= 3 {
		for _, t := range s.byHand {
			out.Println("planx: %s %s is ticked by hand (no task commit of it): skipped", textsafe.Line(t.DisplayID()), textsafe.Line(textsafe.Shorten(t.Title, 60)))
		}
	} else {
		var ids []string
		for _, t := range s.byHand[:min(5, len(s.byHand))] {
			ids = append(ids, textsafe.Line(t.DisplayID()))
		}
		if len(s.byHand) > 5 {
			ids = append(ids, fmt.Sprintf("and %d more", len(s.byHand)-5))
		}
		out.Println("planx: %d task(s) are ticked by hand (no task commit of them): skipped: %s", len(s.byHand), strings.Join(ids, ", "))
	}
	if n := len(s.optional); n > 0 {
		var ids []string
		for _, t := range s.optional {
			ids = append(ids, textsafe.Line(t.DisplayID()))
		}
		out.Println("planx: %d optional task(s) left out (run them with --optional): %s", n, strings.Join(ids, ", "))
	}
	if n := len(s.outside); n > 0 {
		var ids []string
		for _, t := range s.outside[:min(8, n)] {
			ids = append(ids, textsafe.Line(t.DisplayID()))
		}
		if n > 8 {
			ids = append(ids, fmt.Sprintf("and %d more", n-8))
		}
		out.Println("planx: %d task(s) not selected (--only, --from, --to, --phase): %s", n, strings.Join(ids, ", "))
	}
}

// completedGroups lists the groups that t's commit completes: each
// ancestor whose sub-tasks are all done once t is (optional ones aside
// unless --optional), innermost first.
func (r *runner) completedGroups(t *planparse.Task) []*planparse.Task {
	var out []*planparse.Task
	done := func(id planparse.TaskID) bool { return id == t.ID || r.done[id] }
	for p := r.task(t.Parent); p != nil; p = r.task(p.Parent) {
		for _, id := range p.Children {
			c := r.task(id)
			if c == nil || done(id) || (c.Optional && !r.o.Optional) {
				continue
			}
			if len(c.Children) > 0 && slices.Contains(out, c) {
				continue
			}
			return out
		}
		out = append(out, p)
	}
	return out
}
