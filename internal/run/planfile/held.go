package planfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// A plan edited while a task runs holds a change that is not the task's:
// a person's (or a shell step's, which is the person's too) edit of other
// tasks or text. It stays in the work tree and out of the task's commit,
// which records the plan as planx knew it with the task's own tick
// (Hold); an agent's edit of another task's text fails the task instead
// (OtherTasks names them).

// Change is how the plan on disk differs from the text planx knows, beyond
// a task's own tick.
type Change struct {
	// Tasks are the tasks whose text changed, added or removed, each with
	// its plan line: "T002 (plan line 6)".
	Tasks []string
	IDs   []planparse.TaskID // the same tasks' IDs
	// Other says the rest of the file changed too (front matter, text
	// between tasks, another task's checkbox).
	Other bool
}

// String says the change in words for a person.
func (c Change) String() string {
	var parts []string
	if len(c.Tasks) > 0 {
		parts = append(parts, "the text of "+strings.Join(c.Tasks, ", "))
	}
	if c.Other {
		parts = append(parts, "other text of the plan")
	}
	return strings.Join(parts, " and ")
}

func (c *Change) add(id planparse.TaskID, format string, args ...any) {
	c.Tasks = append(c.Tasks, fmt.Sprintf(format, args...))
	c.IDs = append(c.IDs, id)
}

// Others reports whether the change touches a task other than t.
func (c Change) Others(t *planparse.Task) bool {
	return slices.ContainsFunc(c.IDs, func(id planparse.TaskID) bool { return id != t.ID })
}

// Changed is how the plan on disk differs from Src beyond t's own tick;
// ok is false when it does not (or cannot be read).
func (pf *File) Changed(t *planparse.Task) (c Change, ok bool) {
	cur, err := os.ReadFile(pf.Abs)
	if err != nil || pf.OnlyTicked(t) {
		return Change{}, false
	}
	old, err1 := planparse.Parse(pf.Abs, pf.Src, planparse.Options{Format: pf.Format})
	now, err2 := planparse.Parse(pf.Abs, cur, planparse.Options{Format: pf.Format})
	if err1 != nil || err2 != nil {
		return Change{Other: true}, true
	}
	for _, o := range old.Order() {
		switch n := now.Task(o.ID); {
		case n == nil:
			c.add(o.ID, "%s (removed)", o.ID)
		case n.Hash() != o.Hash():
			c.add(o.ID, "%s (plan line %d)", o.ID, n.Line)
		}
	}
	for _, n := range now.Order() {
		if old.Task(n.ID) == nil {
			c.add(n.ID, "%s (added, plan line %d)", n.ID, n.Line)
		}
	}
	// Whatever else differs: the file with the tasks' changes taken out
	// cannot be rebuilt, so any byte beyond them counts as other text.
	c.Other = len(c.Tasks) == 0
	return c, true
}

// HoldEdit marks the plan on disk as holding an edit that is not the
// task's (Changed): the task's commit takes the plan as planx knew it,
// with the tick (Hold).
func (pf *File) HoldEdit() { pf.held = true }

// Hold readies the plan file for a task's commit when it holds an edit
// that is not the task's: the edit is kept aside (in memory and in keep,
// a file a crash leaves behind for the person) and the file written back
// as planx knew it, for the tick and the commit. release puts the edit
// back, ticked as the commit's plan is, whether the commit was made or
// not. Without such an edit, release does nothing.
func (pf *File) Hold(t *planparse.Task, keep string) (release func() error, err error) {
	if !pf.held {
		return func() error { return nil }, nil
	}
	pf.held = false
	cur, err := os.ReadFile(pf.Abs)
	if err != nil {
		return nil, fmt.Errorf("keep the edit of %s: %w", pf.Rel, err)
	}
	if err := os.MkdirAll(filepath.Dir(keep), 0o755); err != nil {
		return nil, fmt.Errorf("keep the edit of %s: %w", pf.Rel, err)
	}
	if err := os.WriteFile(keep, cur, 0o644); err != nil {
		return nil, fmt.Errorf("keep the edit of %s: %w", pf.Rel, err)
	}
	known := pf.Src
	if err := pf.write(known); err != nil {
		return nil, fmt.Errorf("keep the edit of %s: %w", pf.Rel, err)
	}
	return func() error {
		committed, back := pf.Src, cur
		if !bytes.Equal(committed, known) {
			// The commit ticked the plan: the edit gets the same ticks.
			back = retick(cur, pf, t)
		}
		if err := pf.write(back); err != nil {
			return fmt.Errorf("put back the edit of %s (it is kept in %s): %w", pf.Rel, keep, err)
		}
		// What planx knows stays the committed text: the edit is kept
		// out of the next task's commit too.
		pf.Src = committed
		_ = os.Remove(keep)
		return nil
	}, nil
}

// retick ticks in src (the person's edited plan) what planx ticked for t:
// t's own box; a group's box that the commit ticked comes along when its
// line is unchanged.
func retick(src []byte, pf *File, t *planparse.Task) []byte {
	p, err := planparse.Parse(pf.Abs, src, planparse.Options{Format: pf.Format})
	if err != nil || p.Task(t.ID) == nil {
		return src
	}
	out, ok := planparse.Tick(src, p.Task(t.ID))
	if !ok {
		return src
	}
	return out
}
