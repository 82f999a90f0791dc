package taskgate

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/planparse"
)

// finalTask names the `when: final` gates' run when no task commit carries
// them (the run's last task was skipped).
const finalTask planparse.TaskID = "final"

// Final runs the `when: final` gates before a run ends without a last
// task commit (its last task was skipped): a run is never "done" without
// them. A failure keeps the run stopped; `planx resume` runs them again.
func (k *Keeper) Final(ctx context.Context) error {
	var sel []gates.Gate
	for _, g := range k.Gates {
		if g.Final() {
			sel = append(sel, g)
		}
	}
	if len(sel) == 0 {
		return nil
	}
	out, err := k.GateRun().Run(ctx, gaterun.Spec{Task: &planparse.Task{ID: finalTask}, Dir: k.Repo.Root, Gates: sel,
		Live: true, Track: true, Begin: k.Out.GateStart(finalTask)})
	if err != nil {
		return err
	}
	results := out.Results
	if failed := gates.Failed(results); len(failed) > 0 {
		f := failed[0]
		what := fmt.Sprintf("final gate %s failed (exit %d) after the last task was skipped; fix it, then `planx resume`", f.Name, f.ExitCode)
		k.Desk.Issue(finalTask, what, "")
		k.State.Reason = what
		_ = k.Desk.Save()
		return fmt.Errorf("%w: %s\n%s", record.ErrTaskFailed, what, f.Tail)
	}
	return nil
}
