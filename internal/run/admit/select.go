package admit

import (
	"context"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/planparse"
)

// Select reads from git which tasks are done and which changed since
// their commit, and lets setup choose what the run executes
// (runplan.Setup.Select); it returns the choice and the done tasks, those
// ticked by hand included.
func Select(ctx context.Context, pf *planfile.File, repo *gitops.Repo, setup *runplan.Setup, o Options) (*runplan.Selection, map[planparse.TaskID]bool, error) {
	done, stale, err := pf.Done(ctx, repo, setup.Plan)
	if err != nil {
		return nil, nil, err
	}
	was := make(map[planparse.TaskID]string, len(stale))
	for id, c := range stale {
		was[id] = pf.BodyAt(ctx, repo, c.SHA, id)
	}
	sel, err := setup.Select(runplan.Choice{Done: done, Stale: stale, Was: was,
		All: o.All, Optional: o.Optional, AcceptDrift: o.AcceptDrift, Subset: o.Subset})
	return sel, done, err
}
