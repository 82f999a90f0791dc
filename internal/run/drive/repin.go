package drive

import (
	"context"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/run/handconfig"
)

// noteHandConfig runs when resume or skip takes up a stopped run, before it
// touches the stopped attempt: an edit of .planx.yaml since the stop is the
// person's (handconfig.Remember), and the person is told that the run
// keeps its pinned gates. With repin (`planx resume --repin`) the edit
// becomes the run's judge instead (handconfig.Repin), and the execution
// log records the re-pin.
func (r *runner) noteHandConfig(ctx context.Context, repin bool) error {
	if err := handconfig.Remember(ctx, r.repo, r.st, r.expect); err != nil {
		return err
	}
	if !repin {
		if n := handconfig.Notice(r.repo.Root, r.st.Pinned, handconfig.Holds(r.repo.Root, r.st)); n != "" {
			r.out.Println("planx: %s", n)
		}
		return nil
	}
	j, what, err := handconfig.Repin(r.repo.Root, r.st, r.pinned, r.Plan, r.GateFlags)
	if err != nil {
		return err
	}
	if j == nil {
		r.out.Println("planx: %s", what)
		return nil
	}
	cfg := j.Config
	r.pinned, r.st.Pinned, r.Config, r.Gates = j, j, cfg, j.Gates
	// Settings no flag of the run set come from the configuration.
	so := r.st.Options
	if so.StepTimeout == 0 {
		r.o.StepTimeout = cfg.StepTimeout
	}
	if so.TaskTimeout == 0 {
		r.o.TaskTimeout = cfg.TaskTimeout
	}
	if so.Attempts == 0 {
		r.o.Attempts = max(cfg.Attempts, 1)
	}
	r.log.Issues = append(r.log.Issues, execlog.Issue{Task: string(r.st.Current), What: what, Time: r.o.NowUTC(), Resolution: "accepted: `planx resume --repin`"})
	r.out.Println("planx: %s", what)
	return nil
}
