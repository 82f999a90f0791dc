package execute

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

func TestOverBudget(t *testing.T) {
	t.Parallel()
	b := planparse.Budget{Task: planparse.Limit{Tokens: 1000, USD: 1}, Run: planparse.Limit{Tokens: 5000}}
	for _, c := range []struct {
		spent     spend
		over, key string
	}{
		{spend{task: record.Cost{In: 900, Out: 100}, run: record.Cost{In: 4000}}, "", ""},
		{spend{task: record.Cost{In: 900, Out: 101}, run: record.Cost{In: 4000}}, "the task's budget: tokens 1001 > 1000", "task.tokens"},
		{spend{task: record.Cost{In: 10, USD: 1.5, HasUSD: true}}, "the task's budget: usd 1.5000 > 1.0000", "task.usd"},
		{spend{task: record.Cost{In: 10}, run: record.Cost{In: 5000, Out: 1}}, "the run's budget: tokens 5001 > 5000", "run.tokens"},
	} {
		over, key := overBudget(b, c.spent)
		if over != c.over || key != c.key {
			t.Errorf("overBudget(%+v) = %q %q; want %q %q", c.spent, over, key, c.over, c.key)
		}
	}
}

func TestBudgetHintNamesWhereTheLimitIsSet(t *testing.T) {
	t.Parallel()
	plan := planparse.Budget{Task: planparse.Limit{Tokens: 10}}
	if h := budgetHint("plan.md", plan, "task.tokens", "T002"); !strings.HasPrefix(h, "raise budget.task.tokens in plan.md's front matter, then `planx resume --repin --retry` runs T002 again") {
		t.Errorf("hint = %q", h)
	}
	if h := budgetHint("plan.md", plan, "run.usd", "T002"); !strings.HasPrefix(h, "raise budget.run.usd in .planx.yaml,") {
		t.Errorf("hint = %q", h)
	}
}
