package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/planfile"
	"github.com/planx-dev/planx/planparse"
)

// drift compares the current plan with the run's start and its commits.
func (r *runner) drift(ctx context.Context, h *history) []planfile.Drift {
	started := make([]planparse.TaskID, len(r.st.Plan))
	for i, p := range r.st.Plan {
		started[i] = p.ID
	}
	return r.pf.Drift(ctx, r.repo, r.Plan, started, h.commits)
}

// checkDrift fails with ErrDrift unless accepted.
func (r *runner) checkDrift(ctx context.Context, h *history, accept bool) error {
	ds := r.drift(ctx, h)
	if len(ds) == 0 {
		return nil
	}
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("\n  " + d.String())
	}
	if accept {
		is := r.issue("", "plan drift:"+b.String())
		is.Resolution = "accepted with --accept-drift"
		r.log.Issues = append(r.log.Issues, is)
		r.out.Println("planx: plan drift accepted:%s", b.String())
		return nil
	}
	return fmt.Errorf("%w: %s changed since the run started:%s\nrestore the plan's text, or pass --accept-drift to go on with the plan as it is",
		ErrDrift, r.planRel, b.String())
}
