package executor

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/planx-dev/planx/internal/linediff"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
)

// checkPinned runs before each task after a run's first: the run executes
// the plan text it started with (plus the ticks it wrote). When a person
// edited the plan meanwhile, the run stops before next with a report of
// what changed (exit 6): it neither runs the old text of a task the person
// changed nor commits text it did not run. `planx resume` goes on with the
// plan as it then stands.
func (r *runner) checkPinned(next *planparse.Task) error {
	cur, err := os.ReadFile(r.planAbs)
	if err != nil {
		return fmt.Errorf("read the plan %s: %w", r.planRel, err)
	}
	if bytes.Equal(cur, r.plan.Source) || bytes.Equal(cur, r.pinChecked) {
		return nil
	}
	// The ticks planx wrote change no task's hash; anything else does, or
	// changes the front matter.
	report, changed := r.pinReport(cur)
	if !changed {
		r.pinChecked = cur
		return nil
	}
	// Nothing of next has run: its attempt starts (and would be discarded)
	// at planx's last commit.
	r.st.AttemptPre, r.st.AttemptStop, r.st.StopRef = r.expect, "", ""
	r.st.Phase = PhaseExecute
	r.logTask(next)
	what := fmt.Sprintf("%s changed during the run; stopped before %s", r.planRel, next.ID)
	err = r.stop(next, record.RunInterrupted, what, report, ErrDrift)
	return fmt.Errorf("%w\n%s\nlook at the change, then `planx resume` runs the plan as it now stands (or `planx abort`)", err, report)
}

// pinReport says, task by task, how the plan on disk differs from the text
// the run executes.
func (r *runner) pinReport(cur []byte) (string, bool) {
	p, err := planparse.Parse(r.planAbs, cur, planparse.Options{Format: r.plan.Format})
	if err != nil {
		return "  the plan no longer parses: " + err.Error(), true
	}
	var b strings.Builder
	for _, t := range r.plan.Order() {
		switch n := p.Task(t.ID); {
		case n == nil:
			fmt.Fprintf(&b, "  %s removed\n", t.ID)
		case n.Hash() != t.Hash():
			fmt.Fprintf(&b, "  %s changed (plan line %d):\n%s\n", t.ID, n.Line, indent(strings.TrimRight(linediff.Lines(t.Body, n.Body), "\n"), "    "))
		}
	}
	for _, n := range p.Order() {
		if r.plan.Task(n.ID) == nil {
			fmt.Fprintf(&b, "  %s added (plan line %d)\n", n.ID, n.Line)
		}
	}
	if !reflect.DeepEqual(p.Gates, r.plan.Gates) || p.Executor != r.plan.Executor {
		b.WriteString("  the front matter changed (gates or executor)\n")
	}
	return strings.TrimRight(b.String(), "\n"), b.Len() > 0
}
