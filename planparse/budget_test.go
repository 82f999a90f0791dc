package planparse

import (
	"strings"
	"testing"
)

func TestParseBudget(t *testing.T) {
	b, err := ParseBudget(map[string]any{
		"task": map[string]any{"tokens": "200k", "usd": 2.5},
		"run":  map[string]any{"tokens": 3000000, "usd": "$20"},
	})
	if want := (Budget{Task: Limit{Tokens: 200000, USD: 2.5}, Run: Limit{Tokens: 3000000, USD: 20}}); err != nil || b != want {
		t.Fatalf("ParseBudget = %+v, %v; want %+v", b, err, want)
	}
	if b, err := ParseBudget(map[string]any{"run": map[string]any{"tokens": "1.5M"}}); err != nil || b.Run.Tokens != 1500000 {
		t.Errorf("1.5M = %+v, %v", b, err)
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{"lots", "budget must be a mapping of task and run"},
		{map[string]any{"tsak": map[string]any{}}, `budget: unknown key "tsak"`},
		{map[string]any{"task": 5}, "budget.task must be a mapping"},
		{map[string]any{"task": map[string]any{"token": 5}}, `budget.task: unknown key "token"`},
		{map[string]any{"task": map[string]any{"tokens": 0}}, "budget.task.tokens: 0 is not a number of tokens"},
		{map[string]any{"task": map[string]any{"tokens": "many"}}, "budget.task.tokens: many is not a number of tokens"},
		{map[string]any{"run": map[string]any{"usd": -1}}, "budget.run.usd: -1 is not an amount of dollars"},
		{map[string]any{"run": map[string]any{"tokens": 2.5}}, "budget.run.tokens: 2.5 is not"},
	} {
		_, err := ParseBudget(c.v)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "hint:") {
			t.Errorf("ParseBudget(%v) = %v; want %q with a hint", c.v, err, c.want)
		}
	}
}

func TestBudgetOrAndOver(t *testing.T) {
	plan := Budget{Task: Limit{Tokens: 100}}
	cfg := Budget{Task: Limit{Tokens: 999, USD: 1}, Run: Limit{USD: 5}}
	if got, want := plan.Or(cfg), (Budget{Task: Limit{Tokens: 100, USD: 1}, Run: Limit{USD: 5}}); got != want {
		t.Errorf("Or = %+v, want %+v", got, want)
	}
	if s := (Budget{Task: Limit{Tokens: 5000}, Run: Limit{USD: 2}}).String(); s != "task tokens 5000, run usd 2.0000" {
		t.Errorf("String = %q", s)
	}
	if s := (Budget{}).String(); s != "none" {
		t.Errorf("String of no budget = %q", s)
	}
	l := Limit{Tokens: 100, USD: 1}
	for _, c := range []struct {
		tokens int64
		usd    float64
		hasUSD bool
		want   string
	}{
		{100, 1, true, ""},
		{101, 0, false, "tokens 101 > 100"},
		{50, 1.5, true, "usd 1.5000 > 1.0000"},
		{50, 1.5, false, ""}, // no price reported: a price limit cannot count it
	} {
		if got := l.Over(c.tokens, c.usd, c.hasUSD); got != c.want {
			t.Errorf("Over(%d, %v, %v) = %q, want %q", c.tokens, c.usd, c.hasUSD, got, c.want)
		}
	}
}

func TestFrontMatterBudget(t *testing.T) {
	src := "---\ntitle: x\nbudget:\n  task: {tokens: 5k}\n---\n- [ ] T001 Do it\n"
	p, err := Parse("plan.md", []byte(src), Options{})
	if err != nil || p.Budget != (Budget{Task: Limit{Tokens: 5000}}) {
		t.Fatalf("Budget = %+v, %v", p.Budget, err)
	}
	bad := "---\ntitle: x\nagent: claude\nbudget:\n  task: {tokens: lots}\n---\n- [ ] T001 Do it\n"
	p, _ = Parse("plan.md", []byte(bad), Options{})
	found := false
	for _, d := range p.Diagnostics {
		if d.Severity == SeverityError && d.Line == 4 && strings.Contains(d.Message, "front matter budget.task.tokens: lots is not a number of tokens") {
			found = true
		}
	}
	if !found {
		t.Errorf("no error at line 4 for a bad budget: %+v", p.Diagnostics)
	}
}
