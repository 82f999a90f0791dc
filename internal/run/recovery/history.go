package recovery

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// History is what git says about a run: its task commits and skipped tasks.
type History struct {
	Commits map[planparse.TaskID]gitops.Commit
	Skipped map[planparse.TaskID]bool
	// rewritten are task commits that are not the ones planx made (made.go).
	rewritten map[planparse.TaskID]rewrite
}

// ReadHistory reads what git has of the run runID between its rollback
// commit base and head: its task commits, less those planx did not make
// (made.go), and the tasks its commits say were skipped.
func ReadHistory(ctx context.Context, repo *gitops.Repo, runID string, current planparse.TaskID, base, head gitops.SHA) (*History, error) {
	commits, err := repo.History().Log(ctx, head, base, 0)
	if err != nil {
		return nil, fmt.Errorf("read run history: %w", err)
	}
	h := &History{Commits: map[planparse.TaskID]gitops.Commit{}, Skipped: map[planparse.TaskID]bool{}}
	for _, c := range commits {
		ts := record.ParseTrailers(c.Message)
		if record.ValueOf(ts, record.TrailerRun) != runID {
			continue
		}
		if id := record.ValueOf(ts, record.TrailerTask); id != "" {
			h.Commits[planparse.TaskID(id)] = c
		}
		for _, tr := range ts {
			if tr.Key == record.TrailerSkipped {
				h.Skipped[planparse.TaskID(tr.Value)] = true
			}
		}
	}
	return h, dropRewritten(repo, runID, current, h)
}

// Remaining lists the run's tasks not yet committed nor skipped, in the
// plan's current order.
func Remaining(plan *planparse.Plan, st *runstate.State, h *History) []*planparse.Task {
	want, skipped := idSet(st.ToRun), idSet(st.Skipped)
	var out []*planparse.Task
	for _, t := range plan.Order() {
		if want[t.ID] && h.Commits[t.ID].SHA == "" && !skipped[t.ID] && !h.Skipped[t.ID] {
			out = append(out, t)
		}
	}
	return out
}

func idSet(ids []planparse.TaskID) map[planparse.TaskID]bool {
	set := make(map[planparse.TaskID]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}

// Drift compares the current plan with the run st's start and its commits.
func Drift(ctx context.Context, pf *planfile.File, repo *gitops.Repo, plan *planparse.Plan, st *runstate.State, h *History) []planfile.Drift {
	started := make([]planparse.TaskID, len(st.Plan))
	for i, p := range st.Plan {
		started[i] = p.ID
	}
	return pf.Drift(ctx, repo, plan, started, h.Commits)
}
