package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/linediff"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
)

// Drift is a difference between the plan as it stands and the run: a
// committed task whose text changed, or tasks added, removed or reordered
// after the run started.
type Drift struct {
	Task planparse.TaskID `json:"task"`
	// Label is the plan's own ID of the task, when it has one (1.2).
	Label string `json:"label,omitempty"`
	Kind  string `json:"kind"` // changed, added, removed, reordered
	Line  int    `json:"line,omitempty"`
	// Commit is the task commit the text changed since (drift found at a run's start).
	Commit string `json:"commit,omitempty"`
	Diff   string `json:"diff,omitempty"`
}

// ownLabel is t's label when the plan calls it otherwise than by its ID.
func ownLabel(t *planparse.Task) string {
	if t.Label == string(t.ID) {
		return ""
	}
	return t.Label
}

func (d Drift) String() string {
	s := fmt.Sprintf("%s %s", planparse.DisplayID(d.Task, d.Label), d.Kind)
	if d.Line > 0 {
		s += fmt.Sprintf(" (plan line %d)", d.Line)
	}
	if d.Commit != "" {
		s += fmt.Sprintf(" since its commit %s", gitops.SHA(d.Commit).Short())
	}
	if d.Diff != "" {
		s += ":\n" + textsafe.Indent(strings.TrimRight(d.Diff, "\n"), "    ")
	}
	return s
}

// drift compares the current plan with the run's start and its commits.
// Pending tasks that changed are not drift: they simply run in their new form.
func (r *runner) drift(ctx context.Context, h *history) ([]Drift, error) {
	var out []Drift
	started := map[planparse.TaskID]bool{}
	for _, p := range r.st.Plan {
		started[p.ID] = true
	}
	for _, t := range r.plan.Order() {
		if !started[t.ID] {
			out = append(out, Drift{Task: t.ID, Label: ownLabel(t), Kind: "added", Line: t.Line})
		}
	}
	var common []planparse.TaskID
	for _, p := range r.st.Plan {
		if r.plan.Task(p.ID) == nil {
			out = append(out, Drift{Task: p.ID, Kind: "removed"})
		} else {
			common = append(common, p.ID)
		}
	}
	i := 0
	for _, t := range r.plan.Order() {
		if started[t.ID] {
			if i < len(common) && common[i] != t.ID {
				out = append(out, Drift{Task: t.ID, Label: ownLabel(t), Kind: "reordered", Line: t.Line})
				break
			}
			i++
		}
	}
	for id, c := range h.commits {
		t := r.plan.Task(id)
		if t == nil || t.HashMatches(c.Trailer(record.TrailerTaskHash)) {
			continue
		}
		out = append(out, Drift{Task: id, Label: ownLabel(t), Kind: "changed", Line: t.Line, Diff: linediff.Lines(r.pf.BodyAt(ctx, r.repo, c.SHA, id), t.Body)})
	}
	return out, nil
}

// checkDrift fails with ErrDrift unless accepted.
func (r *runner) checkDrift(ctx context.Context, h *history, accept bool) error {
	ds, err := r.drift(ctx, h)
	if err != nil || len(ds) == 0 {
		return err
	}
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("\n  " + d.String())
	}
	if accept {
		is := r.issue("", "plan drift:"+b.String())
		is.Resolution = "accepted with --accept-drift"
		r.log.Issues = append(r.log.Issues, is)
		r.out.Println("planx: plan drift accepted:%s", b.String())
		return nil
	}
	return fmt.Errorf("%w: %s changed since the run started:%s\nrestore the plan's text, or pass --accept-drift to go on with the plan as it is",
		ErrDrift, r.planRel, b.String())
}
