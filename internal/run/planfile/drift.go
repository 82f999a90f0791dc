package planfile

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/linediff"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
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

// Drift compares plan as it stands with the run's start (the tasks it
// started with, in order) and its task commits. Pending tasks that
// changed are not drift: they simply run in their new form.
func (pf *File) Drift(ctx context.Context, repo *gitops.Repo, plan *planparse.Plan, startedWith []planparse.TaskID, commits map[planparse.TaskID]gitops.Commit) []Drift {
	var out []Drift
	started := map[planparse.TaskID]bool{}
	for _, id := range startedWith {
		started[id] = true
	}
	for _, t := range plan.Order() {
		if !started[t.ID] {
			out = append(out, Drift{Task: t.ID, Label: t.OwnLabel(), Kind: "added", Line: t.Line})
		}
	}
	var common []planparse.TaskID
	for _, id := range startedWith {
		if plan.Task(id) == nil {
			out = append(out, Drift{Task: id, Kind: "removed"})
		} else {
			common = append(common, id)
		}
	}
	i := 0
	for _, t := range plan.Order() {
		if started[t.ID] {
			if i < len(common) && common[i] != t.ID {
				out = append(out, Drift{Task: t.ID, Label: t.OwnLabel(), Kind: "reordered", Line: t.Line})
				break
			}
			i++
		}
	}
	for id, c := range commits {
		t := plan.Task(id)
		if t == nil || t.HashMatches(record.TrailerOf(c.Message, record.TrailerTaskHash)) {
			continue
		}
		out = append(out, Drift{Task: id, Label: t.OwnLabel(), Kind: "changed", Line: t.Line, Diff: linediff.Lines(pf.BodyAt(ctx, repo, c.SHA, id), t.Body)})
	}
	return out
}
