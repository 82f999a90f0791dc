package gates

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// Merge combines gates from the repository config, the plan and --gate flags.
// A gate in a later source overrides the earlier one of the same name field
// by field: only the fields it sets win, so `--gate test='go test -run X'`
// replaces the command but keeps the configured timeout and schedule. Gates
// keep the position where their name first appeared.
func Merge(config, plan, flags []Gate) []Gate {
	var out []Gate
	at := map[string]int{}
	for _, src := range [][]Gate{config, plan, flags} {
		for _, g := range src {
			i, ok := at[g.Name]
			if !ok {
				at[g.Name] = len(out)
				out = append(out, g)
				continue
			}
			out[i] = override(out[i], g)
		}
	}
	return out
}

func override(base, g Gate) Gate {
	if g.Command != "" {
		base.Command = g.Command
	}
	if g.Timeout != 0 {
		base.Timeout = g.Timeout
	}
	if g.When != "" {
		base.When = g.When
	}
	if g.DefaultRadius != "" {
		base.DefaultRadius = g.DefaultRadius
	}
	base.Fix = base.Fix || g.Fix
	if !g.Report.IsZero() {
		base.Report = g.Report
	}
	return base
}

// Select picks the gates to run. With names nil (the task did not choose),
// it returns every per-task gate, and the final ones too when final is true.
// With names non-nil it returns exactly the named gates in the order named,
// whatever their schedule: a task that names a gate wants it. An empty,
// non-nil names selects nothing. Names not in all are skipped; report them
// with Unknown.
func Select(all []Gate, names []string, final bool) []Gate {
	var out []Gate
	if names == nil {
		for _, g := range all {
			if !g.Final() || final {
				out = append(out, g)
			}
		}
		return out
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if g, ok := find(all, n); ok {
			out = append(out, g)
		}
	}
	return out
}

// Unknown returns the names that are not gates in all, in the order given.
func Unknown(all []Gate, names []string) []string {
	var out []string
	for _, n := range names {
		if _, ok := find(all, n); !ok {
			out = append(out, n)
		}
	}
	return out
}

func find(all []Gate, name string) (Gate, bool) {
	for _, g := range all {
		if g.Name == name {
			return g, true
		}
	}
	return Gate{}, false
}

// ForPlan is the gates a run of plan has: cfg's, the plan's front matter's
// and the --gate flags', merged in that order (a later one replaces an
// earlier of the same name). A task that selects a gate none of them
// declares makes the plan invalid.
func ForPlan(cfg Config, plan *planparse.Plan, flags []string) ([]Gate, error) {
	fromPlan, err := FromPlan(plan.Gates)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: front matter gates: %v", planparse.ErrInvalid, plan.Path, err)
	}
	var fromFlags []Gate
	for _, f := range flags {
		g, err := ParseFlag(f)
		if err != nil {
			return nil, err
		}
		fromFlags = append(fromFlags, g)
	}
	all := Merge(cfg.Gates, fromPlan, fromFlags)
	if err := CheckTasks(all, plan); err != nil {
		return nil, err
	}
	return all, nil
}

// CheckTasks refuses a plan whose tasks select a gate not in all, naming
// each at its plan line.
func CheckTasks(all []Gate, plan *planparse.Plan) error {
	var bad []string
	for _, t := range plan.Tasks {
		for _, name := range Unknown(all, t.Gates) {
			bad = append(bad, fmt.Sprintf("%s:%d: task %s selects unknown gate %q", plan.Path, t.Line, t.ID, name))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w:\n%s\ndeclare the gate in .planx.yaml, the plan's front matter or with --gate name=command",
			planparse.ErrInvalid, strings.Join(bad, "\n"))
	}
	return nil
}
