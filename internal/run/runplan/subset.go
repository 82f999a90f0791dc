package runplan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// Subset narrows a run to part of the plan: --only (tasks named by their
// id or the plan's own label: T003, 1.2), --from and --to (a range in
// plan order, ends included), --phase (tasks whose phase heading contains
// the text). Empty fields select everything.
type Subset struct {
	Only     []string
	From, To string
	Phase    string
}

func (s Subset) empty() bool { return len(s.Only) == 0 && s.From == "" && s.To == "" && s.Phase == "" }

// findTask resolves a reference to a task: its id (T003, t3, 3 for T003)
// or the plan's own label (1.2).
func findTask(plan *planparse.Plan, ref string) *planparse.Task {
	ref = strings.TrimSpace(ref)
	for _, t := range plan.Order() {
		if strings.EqualFold(string(t.ID), ref) || (t.Label != "" && t.Label == ref) {
			return t
		}
	}
	return nil
}

// Named are the optional tasks --only names: a task asked for by name is
// meant to run, optional or not (the sub-tasks of an optional group named
// too). Unknown references are Narrow's to report.
func (s Subset) Named(plan *planparse.Plan) map[planparse.TaskID]bool {
	named := map[planparse.TaskID]bool{}
	for _, ref := range s.Only {
		t := findTask(plan, ref)
		if t == nil || !t.Optional {
			continue
		}
		named[t.ID] = true
		for _, c := range t.Children {
			named[c] = true
		}
	}
	return named
}

// narrow keeps of sel.Run the tasks the subset names; the others are left
// out (sel.Outside). A kept task that depends on a task neither done nor
// kept is an error: the run would build on work that is not there.
func (s Subset) Narrow(plan *planparse.Plan, sel *Selection, done map[planparse.TaskID]bool) error {
	if s.empty() {
		return nil
	}
	order := plan.Order()
	pos := func(ref, flag string) (int, error) {
		t := findTask(plan, ref)
		if t == nil {
			return 0, fmt.Errorf("%w: %s %s: no task of %s has that id or label", planparse.ErrInvalid, flag, ref, plan.Path)
		}
		return slices.Index(order, t), nil
	}
	from, to := 0, len(order)-1
	var err error
	if s.From != "" {
		if from, err = pos(s.From, "--from"); err != nil {
			return err
		}
	}
	if s.To != "" {
		if to, err = pos(s.To, "--to"); err != nil {
			return err
		}
	}
	only := map[planparse.TaskID]bool{}
	for _, ref := range s.Only {
		t := findTask(plan, ref)
		if t == nil {
			return fmt.Errorf("%w: --only %s: no task of %s has that id or label", planparse.ErrInvalid, ref, plan.Path)
		}
		only[t.ID] = true
		for _, c := range t.Children { // a group names its sub-tasks
			only[c] = true
		}
	}
	in := func(t *planparse.Task) bool {
		i := slices.Index(order, t)
		return i >= from && i <= to && (len(only) == 0 || only[t.ID]) &&
			(s.Phase == "" || strings.Contains(strings.ToLower(t.Phase), strings.ToLower(s.Phase)))
	}
	var keep []*planparse.Task
	kept := map[planparse.TaskID]bool{}
	for _, t := range sel.Run {
		if in(t) {
			keep, kept[t.ID] = append(keep, t), true
		} else {
			sel.Outside = append(sel.Outside, t)
		}
	}
	for _, t := range keep {
		for _, d := range t.DependsOn {
			if !done[d] && !kept[d] && hasLeafWork(plan, d, done, kept) {
				return fmt.Errorf("%w: %s depends on %s, which is not done and not selected: add it (--only %s,%s) or leave the subset out",
					planparse.ErrInvalid, t.ID, d, d, t.ID)
			}
		}
	}
	sel.Run = keep
	return nil
}

// hasLeafWork reports whether task id (a leaf, or a group through its
// sub-tasks) still has work that is neither done nor kept.
func hasLeafWork(plan *planparse.Plan, id planparse.TaskID, done, kept map[planparse.TaskID]bool) bool {
	t := plan.Task(id)
	if t == nil {
		return false
	}
	if len(t.Children) == 0 {
		return !done[id] && !kept[id]
	}
	return slices.ContainsFunc(t.Children, func(c planparse.TaskID) bool { return hasLeafWork(plan, c, done, kept) })
}
