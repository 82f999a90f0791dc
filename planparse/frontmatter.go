package planparse

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// frontMatter decodes the YAML (or TOML) front matter into the plan.
func (b *builder) frontMatter() {
	fm := b.d.fm
	if fm == nil {
		return
	}
	if b.d.fmLines >= len(b.d.lines) && len(b.d.lines) > 1 {
		b.diag(SeverityWarning, 1, "front matter is never closed: the whole file was read as front matter",
			"end the front matter with a line holding only ---")
	}
	var m map[string]any
	if err := fm.Decode(&m); err != nil {
		msg, line := yamlErrLine(firstLine(err.Error()))
		b.diag(SeverityError, line, "front matter: "+msg, "fix the YAML between the --- lines")
		return
	}
	b.checkFrontMatterKeys()
	b.p.FrontMatter = jsonSafe(m).(map[string]any)
	str := func(k string) string {
		if v, ok := m[k].(string); ok {
			return strings.TrimSpace(v)
		}
		return ""
	}
	b.p.Title = str("title")
	if b.p.Title == "" {
		b.p.Title = str("name")
	}
	b.p.Topic = slugify(str("topic"))
	if b.p.Topic == "" {
		b.p.Topic = slugify(b.p.Title)
	}
	b.p.Agent = str("agent")
	b.p.Executor = strings.ToLower(str("executor"))
	if _, ok := m["gates"]; ok {
		var g struct {
			Gates []GateDecl `yaml:"gates" toml:"gates"`
		}
		if err := fm.Decode(&g); err != nil {
			msg, line := yamlErrLine(firstLine(err.Error()))
			if line == 1 {
				line = b.fmLine("gates")
			}
			b.diag(SeverityError, line, "front matter gates: "+msg,
				"write gates as a list of {name, command, timeout, when: each|final}")
		} else {
			b.p.Gates = g.Gates
		}
	}
	b.checkGates()
	if v, ok := m["budget"]; ok {
		bud, err := ParseBudget(v)
		if be, isBudget := err.(*BudgetError); isBudget {
			b.diag(SeverityError, b.fmLine("budget"), "front matter "+be.Msg, be.Hint)
		}
		b.p.Budget = bud
	}
	if e := b.p.Executor; e != "" && !validExecutor(e) {
		b.diag(SeverityError, b.fmLine("executor"), fmt.Sprintf("front matter executor %q is not shell, agent or manual", e),
			"set executor: shell, agent or manual")
	}
}

func (b *builder) checkGates() {
	seen := map[string]int{}
	for i, g := range b.p.Gates {
		line := b.gateLine(i)
		switch {
		case g.Name == "" && g.Command == "":
			b.diag(SeverityError, line, fmt.Sprintf("gate %d needs a name and a command", i+1), "write {name: test, command: go test ./...}")
			continue
		case g.Name == "":
			b.diag(SeverityError, line, fmt.Sprintf("gate %d (%s) needs a name", i+1, g.Command), "add name: to the gate")
			continue
		case g.Command == "":
			b.diag(SeverityError, line, fmt.Sprintf("gate %q needs a command", g.Name), "add command: to the gate")
			continue
		}
		if first, dup := seen[g.Name]; dup {
			b.diag(SeverityError, line, fmt.Sprintf("gate %q is declared twice (first on line %d)", g.Name, first), "give every gate its own name")
		}
		seen[g.Name] = line
		if g.When != "" && g.When != "each" && g.When != "final" {
			b.diag(SeverityError, line, fmt.Sprintf("gate %q: when is %q, want each or final", g.Name, g.When), "use when: each (after every task) or when: final")
		}
		if g.Timeout != "" {
			if d, err := time.ParseDuration(g.Timeout); err != nil || d <= 0 {
				b.diag(SeverityError, line, fmt.Sprintf("gate %q: timeout %q is not a duration", g.Name, g.Timeout), "write a Go duration such as 30s or 5m")
			}
		}
	}
}

// yamlErrLine splits "yaml: line 3: message" into the message and its
// line in the plan (the front matter starts after the first line).
func yamlErrLine(msg string) (string, int) {
	msg = strings.TrimPrefix(msg, "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, m, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				return m, n + 1
			}
		}
	}
	return msg, 1
}

func validExecutor(e string) bool {
	switch Kind(e) {
	case KindShell, KindAgent, KindManual:
		return true
	}
	return false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// jsonSafe converts YAML's map[any]any values so the plan marshals to JSON.
func jsonSafe(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonSafe(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = jsonSafe(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonSafe(e)
		}
		return out
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x) // JSON has no NaN or Inf
		}
		return x
	default:
		return v
	}
}
