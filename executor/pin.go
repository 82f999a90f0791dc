package executor

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/planx-dev/planx/internal/linediff"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstate"
)

// checkPinned runs before each task after a run's first: the run executes
// the plan text it started with (plus the ticks it wrote). When a person
// edited the plan meanwhile, the run stops before next with a report of
// what changed (exit 6): it neither runs the old text of a task the person
// changed nor commits text it did not run. `planx resume` goes on with the
// plan as it then stands.
func (r *runner) checkPinned(next *planparse.Task) error {
	report, changed, err := r.edited(r.plan)
	if err != nil || !changed {
		return err
	}
	// Nothing of next has run: its attempt starts (and would be discarded)
	// at planx's last commit.
	r.st.AttemptPre, r.st.AttemptStop, r.st.StopRef = r.expect, "", ""
	r.st.Phase = runstate.PhaseExecute
	r.logTask(next)
	what := fmt.Sprintf("%s changed during the run; stopped before %s", r.planRel, next.ID)
	err = r.stop(next, record.RunInterrupted, what, report, ErrDrift)
	return fmt.Errorf("%w\n%s\nlook at the change, then `planx resume` runs the plan as it now stands (or `planx abort`)", err, report)
}

// edited reports whether the plan on disk differs from pinned, the text the
// run executes, other than by ticks, and how (pinReport). A text found to
// differ only by ticks is remembered, so the file is parsed again only when
// it changes again.
func (pf *planFile) edited(pinned *planparse.Plan) (report string, changed bool, err error) {
	cur, err := os.ReadFile(pf.planAbs)
	if err != nil {
		return "", false, fmt.Errorf("read the plan %s: %w", pf.planRel, err)
	}
	if bytes.Equal(cur, pinned.Source) || bytes.Equal(cur, pf.pinChecked) {
		return "", false, nil
	}
	// The ticks planx wrote change no task's hash; anything else does, or
	// changes the front matter.
	if report, changed = pf.pinReport(pinned, cur); !changed {
		pf.pinChecked = cur
	}
	return report, changed, nil
}

// pinReport says, task by task, how the plan text cur differs from pinned.
func (pf *planFile) pinReport(pinned *planparse.Plan, cur []byte) (string, bool) {
	p, err := planparse.Parse(pf.planAbs, cur, planparse.Options{Format: pf.format})
	if err != nil {
		return "  the plan no longer parses: " + err.Error(), true
	}
	var b strings.Builder
	for _, t := range pinned.Order() {
		switch n := p.Task(t.ID); {
		case n == nil:
			fmt.Fprintf(&b, "  %s removed\n", t.ID)
		case n.Hash() != t.Hash():
			fmt.Fprintf(&b, "  %s changed (plan line %d):\n%s\n", t.ID, n.Line, textsafe.Indent(strings.TrimRight(linediff.Lines(t.Body, n.Body), "\n"), "    "))
		}
	}
	for _, n := range p.Order() {
		if pinned.Task(n.ID) == nil {
			fmt.Fprintf(&b, "  %s added (plan line %d)\n", n.ID, n.Line)
		}
	}
	if !reflect.DeepEqual(p.Gates, pinned.Gates) || p.Executor != pinned.Executor {
		b.WriteString("  the front matter changed (gates or executor)\n")
	}
	return strings.TrimRight(b.String(), "\n"), b.Len() > 0
}
