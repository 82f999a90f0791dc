package drive

import (
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// checkPinned runs before each task after a run's first: the run executes
// the plan text it started with (plus the ticks it wrote). When a person
// edited the plan meanwhile, the run stops before next with a report of
// what changed (exit 6): it neither runs the old text of a task the person
// changed nor commits text it did not run. `planx resume` goes on with the
// plan as it then stands. expect is planx's last commit.
func checkPinned(b books, pf *planfile.File, plan *planparse.Plan, expect gitops.SHA, next *planparse.Task) error {
	report, changed, err := pf.Edited(plan)
	if err != nil || !changed {
		return err
	}
	// Nothing of next has run: its attempt starts (and would be discarded)
	// at planx's last commit.
	b.st.AttemptPre, b.st.AttemptStop, b.st.StopRef, b.st.AttemptSpace = expect, "", "", ""
	b.st.Phase = runstate.PhaseExecute
	b.logTask(next)
	what := fmt.Sprintf("%s changed during the run; stopped before %s", b.planRel, next.ID)
	err = b.stop(next, record.RunInterrupted, what, report, ErrDrift)
	return fmt.Errorf("%w\n%s\n%s", err, report, recovery.DriftNext(next))
}
