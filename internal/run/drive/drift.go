package drive

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/planparse"
)

// acceptDrift says what drifted (ds) in the plan at planRel: with accept
// (--accept-drift) the log records it as accepted and the run goes on;
// otherwise it is an ErrDrift.
func acceptDrift(ds []planfile.Drift, planRel string, accept bool, log *execlog.Log, issue func(planparse.TaskID, string) execlog.Issue, out *progress.Progress) error {
	if len(ds) == 0 {
		return nil
	}
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("\n  " + d.String())
	}
	if accept {
		is := issue("", "plan drift:"+b.String())
		is.Resolution = "accepted with --accept-drift"
		log.Issues = append(log.Issues, is)
		out.Println("planx: plan drift accepted:%s", b.String())
		return nil
	}
	return fmt.Errorf("%w: %s changed since the run started:%s\nrestore the plan's text, or `planx resume --accept-drift` goes on with the plan as it is",
		ErrDrift, planRel, b.String())
}
