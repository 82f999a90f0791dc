package execute

import (
	"fmt"
	"sync"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// Budget is what an agent attempt of task Task may spend: the limits
// pinned at the run's start (Limits), against the task's cost over its
// earlier attempts (Spent) and the run's over its tasks. The run's is read
// from its log at each check, under Lock when other tasks write it (a
// wave), so that the tasks of a wave that ended meanwhile count. The
// task's log entry takes an attempt's cost only once the attempt ended,
// so an attempt is never counted twice.
type Budget struct {
	Limits planparse.Budget
	// Plan are the plan's own limits (its front matter): the hint names
	// where the limit that was passed is set.
	Plan    planparse.Budget
	PlanRel string
	Task    planparse.TaskID
	Spent   record.Cost
	Log     *execlog.Log
	Lock    sync.Locker // nil: nobody else writes the log
}

// Over says which limit the attempt, having cost attempt so far, goes over
// and by how much ("" while it does not), and how the person raises it and
// goes on.
func (b *Budget) Over(attempt record.Cost) (over, hint string) {
	var run record.Cost
	if b.Lock != nil {
		b.Lock.Lock()
	}
	for _, t := range b.Log.Tasks {
		run = run.Add(t.Cost)
	}
	if b.Lock != nil {
		b.Lock.Unlock()
	}
	over, key := overBudget(b.Limits, spend{task: b.Spent.Add(attempt), run: run.Add(attempt)})
	if over == "" {
		return "", ""
	}
	return over + " (budget." + key + ")", budgetHint(b.PlanRel, b.Plan, key, b.Task)
}

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
