package executor

import (
	"fmt"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// spend is what a budget is checked against: the task's cost over its
// attempts and the run's over its tasks, the attempt in flight included.
type spend struct{ task, run record.Cost }

// overBudget says which limit of b spent goes over and by how much
// ("the task's budget: tokens 5200 > 5000") and the limit's key
// ("task.tokens"); "" when none.
func overBudget(b planparse.Budget, spent spend) (over, key string) {
	for _, l := range []struct {
		name, key string
		lim       planparse.Limit
		c         record.Cost
	}{{"the task's", "task", b.Task, spent.task}, {"the run's", "run", b.Run, spent.run}} {
		if why := l.lim.Over(l.c.Tokens(), l.c.USD, l.c.HasUSD); why != "" {
			unit := "tokens"
			if l.lim.Tokens == 0 || l.c.Tokens() <= l.lim.Tokens {
				unit = "usd"
			}
			return l.name + " budget: " + why, l.key + "." + unit
		}
	}
	return "", ""
}

// budgetHint tells the person where the limit key is set and how to go
// on: raised, `planx resume --repin` takes it (the plan's front matter
// overrides .planx.yaml limit by limit).
func budgetHint(planRel string, plan planparse.Budget, key string, id planparse.TaskID) string {
	where := gates.ConfigFile
	if setIn(plan, key) {
		where = planRel + "'s front matter"
	}
	return fmt.Sprintf("raise budget.%s in %s, then `planx resume --repin --retry` runs %s again, or `planx resume --repin` checks and commits its work as it stands",
		key, where, id)
}

// setIn reports whether b sets the limit key names.
func setIn(b planparse.Budget, key string) bool {
	switch key {
	case "task.tokens":
		return b.Task.Tokens > 0
	case "task.usd":
		return b.Task.USD > 0
	case "run.tokens":
		return b.Run.Tokens > 0
	case "run.usd":
		return b.Run.USD > 0
	}
	return false
}

// budget is the check an agent attempt of the turn's task runs under
// (execute.Options.Budget), nil when the run has no budget. The task's
// cost so far is read at the attempt's start; the run's at each check,
// so that the tasks of a wave that ended meanwhile count. The task's log
// entry takes the attempt's cost only once the attempt ended (turn.agent),
// so the attempt is never counted twice.
func (tu *turn) budget() func(record.Cost) (over, hint string) {
	r := tu.r
	if r.pinned == nil || r.pinned.Budget.IsZero() {
		return nil
	}
	b := r.pinned.Budget
	var task record.Cost
	tu.at.locked(func() { task = tu.lt.Cost })
	planBudget := r.Plan.Budget
	return func(attempt record.Cost) (string, string) {
		var run record.Cost
		tu.at.locked(func() {
			for _, t := range r.log.Tasks {
				run = run.Add(t.Cost)
			}
		})
		over, key := overBudget(b, spend{task: task.Add(attempt), run: run.Add(attempt)})
		if over == "" {
			return "", ""
		}
		return over + " (budget." + key + ")", budgetHint(r.planRel, planBudget, key, tu.t.ID)
	}
}

// budgetSpent is the failure of a task that may not start its agent: the
// budget is spent already (by its earlier attempts, or the run's tasks).
func budgetSpent(over, hint string) error {
	return &outcome.Failure{What: "over budget before the agent started: " + over, Budget: true, Hint: hint}
}
