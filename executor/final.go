package executor

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/planparse"
)

// finalTask names the `when: final` gates' run when no task commit carries
// them (the run's last task was skipped).
const finalTask planparse.TaskID = "final"

// finalGates runs the `when: final` gates before a run ends without a last
// task commit (its last task was skipped): a run is never "done" without
// them. A failure keeps the run stopped; `planx resume` runs them again.
func (r *runner) finalGates(ctx context.Context) error {
	var sel []gates.Gate
	for _, g := range r.Gates {
		if g.Final() {
			sel = append(sel, g)
		}
	}
	if len(sel) == 0 {
		return nil
	}
	out, err := r.gateRun().Run(ctx, gaterun.Spec{Task: &planparse.Task{ID: finalTask}, Dir: r.repo.Root, Gates: sel,
		Live: true, Track: true, Begin: r.out.GateStart})
	if err != nil {
		return err
	}
	results := out.Results
	if failed := gates.Failed(results); len(failed) > 0 {
		f := failed[0]
		what := fmt.Sprintf("final gate %s failed (exit %d) after the last task was skipped; fix it, then `planx resume`", f.Name, f.ExitCode)
		r.log.Issues = append(r.log.Issues, execlog.Issue{Task: string(finalTask), What: what, Time: r.o.now()})
		r.st.Reason = what
		_ = r.books().save()
		return fmt.Errorf("%w: %s\n%s", ErrTaskFailed, what, f.Tail)
	}
	return nil
}
