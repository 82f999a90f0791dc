package planparse

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/planx-dev/planx/internal/suggest"
)

// Budget bounds what agents may spend on model use, as their CLIs report
// it: each task over all its attempts (Task) and the whole run, resumes
// included (Run). Zero limits are no limits. It is the `budget:` setting
// of the plan's front matter and of .planx.yaml:
//
//	budget:
//	  task: {tokens: 200k, usd: 2.50}
//	  run: {tokens: 2M}
type Budget struct {
	Task Limit `json:"task,omitzero"`
	Run  Limit `json:"run,omitzero"`
}

// Limit is one budget: tokens (in and out together) and US dollars, each
// 0 when not bounded.
type Limit struct {
	Tokens int64   `json:"tokens,omitempty"`
	USD    float64 `json:"usd,omitempty"`
}

// IsZero reports a budget that bounds nothing.
func (b Budget) IsZero() bool { return b == Budget{} }

// Or is b with each limit it does not set taken from base: the plan's
// budget over the configuration's.
func (b Budget) Or(base Budget) Budget {
	or := func(l, base Limit) Limit {
		if l.Tokens == 0 {
			l.Tokens = base.Tokens
		}
		if l.USD == 0 {
			l.USD = base.USD
		}
		return l
	}
	return Budget{Task: or(b.Task, base.Task), Run: or(b.Run, base.Run)}
}

// String says the budget's limits: "task tokens 5000, run usd 2.0000", or
// "none".
func (b Budget) String() string {
	var parts []string
	for _, l := range []struct {
		name string
		lim  Limit
	}{{"task", b.Task}, {"run", b.Run}} {
		if l.lim.Tokens > 0 {
			parts = append(parts, fmt.Sprintf("%s tokens %d", l.name, l.lim.Tokens))
		}
		if l.lim.USD > 0 {
			parts = append(parts, fmt.Sprintf("%s usd %.4f", l.name, l.lim.USD))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Over says how spent goes over l ("tokens 5200 > 5000"), "" when it does
// not. A price limit counts only the spending whose price the agent
// reported (hasUSD).
func (l Limit) Over(tokens int64, usd float64, hasUSD bool) string {
	switch {
	case l.Tokens > 0 && tokens > l.Tokens:
		return fmt.Sprintf("tokens %d > %d", tokens, l.Tokens)
	case l.USD > 0 && hasUSD && usd > l.USD:
		return fmt.Sprintf("usd %.4f > %.4f", usd, l.USD)
	}
	return ""
}

var (
	budgetKeys = []string{"task", "run"}
	limitKeys  = []string{"tokens", "usd"}
)

// BudgetError is a `budget:` value planx cannot read: Msg says what, Hint
// how to write it, Path the keys down to it (["run", "tokens"]), for the
// caller to find its line.
type BudgetError struct {
	Msg, Hint string
	Path      []string
}

func (e *BudgetError) Error() string { return e.Msg + " (hint: " + e.Hint + ")" }

const budgetHint = "write budget: {task: {tokens: 200k, usd: 2.50}, run: {tokens: 2M, usd: 20}}"

// ParseBudget reads a decoded `budget:` value (YAML or TOML): a mapping
// of task and run, each a mapping of tokens (a whole number, with k or M
// for thousands or millions) and usd (a number of dollars).
func ParseBudget(v any) (Budget, error) {
	var b Budget
	m, ok := asMap(v)
	if !ok {
		return b, &BudgetError{Msg: "budget must be a mapping of task and run", Hint: budgetHint}
	}
	for _, k := range sortedKeys(m) {
		var dst *Limit
		switch k {
		case "task":
			dst = &b.Task
		case "run":
			dst = &b.Run
		default:
			return Budget{}, &BudgetError{Msg: fmt.Sprintf("budget: unknown key %q", k), Hint: hintOr(suggest.Hint(k, budgetKeys)), Path: []string{k}}
		}
		l, err := parseLimit(k, m[k])
		if err != nil {
			return Budget{}, err
		}
		*dst = l
	}
	return b, nil
}

func parseLimit(name string, v any) (Limit, error) {
	var l Limit
	m, ok := asMap(v)
	if !ok {
		return l, &BudgetError{Msg: fmt.Sprintf("budget.%s must be a mapping of tokens and usd", name), Hint: budgetHint, Path: []string{name}}
	}
	for _, k := range sortedKeys(m) {
		var err error
		switch k {
		case "tokens":
			l.Tokens, err = parseTokens(m[k])
		case "usd":
			l.USD, err = parseUSD(m[k])
		default:
			err = &BudgetError{Msg: fmt.Sprintf("budget.%s: unknown key %q", name, k), Hint: hintOr(suggest.Hint(k, limitKeys))}
		}
		if err != nil {
			if be, ok := err.(*BudgetError); ok {
				if !strings.HasPrefix(be.Msg, "budget.") {
					be.Msg = fmt.Sprintf("budget.%s.%s: %s", name, k, be.Msg)
				}
				be.Path = []string{name, k}
			}
			return Limit{}, err
		}
	}
	return l, nil
}

// parseTokens reads 200000, "200k", "1.5M".
func parseTokens(v any) (int64, error) {
	bad := &BudgetError{Msg: fmt.Sprintf("%v is not a number of tokens", v), Hint: "write a whole number above 0, e.g. 200000, 200k or 1.5M"}
	f, s, isNumber := number(v)
	switch {
	case isNumber:
	case s != "":
		s, mult := strings.TrimSpace(s), 1.0
		switch {
		case strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K"):
			s, mult = s[:len(s)-1], 1e3
		case strings.HasSuffix(s, "M"):
			s, mult = s[:len(s)-1], 1e6
		}
		n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return 0, bad
		}
		f = n * mult
	default:
		return 0, bad
	}
	if f < 1 || f != math.Trunc(f) || f > math.MaxInt64/2 {
		return 0, bad
	}
	return int64(f), nil
}

// parseUSD reads 2.5, "2.50", "$2.50".
func parseUSD(v any) (float64, error) {
	bad := &BudgetError{Msg: fmt.Sprintf("%v is not an amount of dollars", v), Hint: "write a number above 0, e.g. 2.50"}
	f, s, isNumber := number(v)
	switch {
	case isNumber:
	case s != "":
		n, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(s), "$"), 64)
		if err != nil {
			return 0, bad
		}
		f = n
	default:
		return 0, bad
	}
	if !(f > 0) || math.IsInf(f, 0) {
		return 0, bad
	}
	return f, nil
}

// asMap is a decoded mapping with string keys.
func asMap(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = e
		}
		return m, true
	}
	return nil, false
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func hintOr(h string) string {
	if h == "" {
		return budgetHint
	}
	return h
}

// number is v as a float when YAML gave a number (isNumber), else the
// string it gave ("" for anything else).
func number(v any) (f float64, s string, isNumber bool) {
	switch x := v.(type) {
	case int:
		return float64(x), "", true
	case int64:
		return float64(x), "", true
	case uint64:
		return float64(x), "", true
	case float64:
		return x, "", true
	case string:
		return 0, x, false
	}
	return 0, "", false
}
