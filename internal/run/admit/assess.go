package admit

import (
	"context"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/approval"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/planparse"
)

// Assessment is a plan's risk over everything planx would run for it, and
// what an approval of it binds.
type Assessment struct {
	Repo    *gitops.Repo
	PlanRel string
	Plan    *planparse.Plan
	Tasks   []risk.Assessment // every task of the plan, in execution order
	Subject approval.Subject
}

// Assess reads the plan and configuration the way Run would and judges every
// command it would run: steps, gates, acceptance commands, the agent.
func Assess(ctx context.Context, o Options) (*Assessment, error) {
	p, err := Prepare(ctx, o, nil)
	if err != nil {
		return nil, err
	}
	return &Assessment{Repo: p.Repo, PlanRel: p.PlanRel, Plan: p.Plan,
		Tasks: p.Assess(ctx, p.Plan.Order()), Subject: p.Subject()}, nil
}
