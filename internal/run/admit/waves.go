package admit

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// Waved is a plan's tasks still to run, cut into the waves a run with
// --jobs > 1 runs them in.
type Waved struct {
	PlanRel string // the plan's path, repository-relative, with slashes
	Waves   [][]*planparse.Task
}

// Waves reads the plan and configuration the way Run does, selects the
// tasks a run would execute (not done yet, o's subset) and cuts them into
// the waves of --jobs: the dry run's own computation, so that a workflow
// that fans a plan out (planx ci github) has the waves a local run has. It
// changes nothing.
func Waves(ctx context.Context, o Options) (*Waved, error) {
	o.DryRun = true
	p, err := Prepare(ctx, o, nil)
	if err != nil {
		return nil, err
	}
	if p.Repo == nil {
		return nil, fmt.Errorf("%w: %s is not in a git repository: a workflow runs a plan of a repository", gitops.ErrRepoState, o.PlanPath)
	}
	sel, _, err := Select(ctx, p.PF, p.Repo, p.Setup, p.O)
	if err != nil {
		return nil, err
	}
	if err := RefuseMisread(p.Setup, p.PlanRel, sel.Run); err != nil {
		return nil, err
	}
	return &Waved{PlanRel: p.PlanRel, Waves: p.Waves(sel.Run)}, nil
}
