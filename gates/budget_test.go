package gates

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/planparse"
)

func TestLoadConfigBudget(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, "agent: claude\nbudget:\n  task:\n    tokens: 200k\n    usd: 2.5\n  run: {usd: 20}\n"))
	want := planparse.Budget{Task: planparse.Limit{Tokens: 200000, USD: 2.5}, Run: planparse.Limit{USD: 20}}
	if err != nil || c.Budget != want {
		t.Fatalf("Budget = %+v, %v; want %+v", c.Budget, err, want)
	}
	for text, at := range map[string]string{
		"agent: a\nbudget:\n  task:\n    tokens: lots\n": ".planx.yaml:4: budget.task.tokens: lots is not a number of tokens (hint: write a whole number",
		"budget: 5\n":                     ".planx.yaml:1: budget must be a mapping of task and run",
		"budget:\n  tasks: {tokens: 5}\n": `.planx.yaml:2: budget: unknown key "tasks" (hint: did you mean task?`,
		"budgte: {}\n":                    `.planx.yaml:1: unknown key "budgte"`,
	} {
		_, err := LoadConfig(writeConfig(t, text))
		if err == nil || !strings.Contains(err.Error(), at) {
			t.Errorf("%q: %v; want %q", text, err, at)
		}
	}
}
