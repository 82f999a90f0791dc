package drive

import (
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/execute"
)

// budget is what an agent attempt of the turn's task may spend
// (execute.Budget), nil when the run has no budget. The task's cost so
// far is read at the attempt's start; the run's at each check, from the
// log under the lock the place's tasks share.
func (tu *turn) budget(o execute.Options) *execute.Budget {
	r := tu.r
	if r.pinned == nil || r.pinned.Budget.IsZero() {
		return nil
	}
	b := &execute.Budget{Limits: r.pinned.Budget, Plan: r.Plan.Budget, PlanRel: r.planRel, Task: tu.t.ID,
		Log: r.log, Lock: o.Shared}
	tu.at.locked(func() { b.Spent = tu.lt.Cost })
	return b
}

// budgetSpent is the failure of a task that may not start its agent: the
// budget is spent already (by its earlier attempts, or the run's tasks).
func budgetSpent(over, hint string) error {
	return &outcome.Failure{What: "over budget before the agent started: " + over, Budget: true, Hint: hint}
}
