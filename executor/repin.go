package executor

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/handconfig"
	"github.com/planx-dev/planx/planparse"
)

// noteHandConfig runs when resume or skip takes up a stopped run, before it
// touches the stopped attempt: an edit of .planx.yaml since the stop is the
// person's (handconfig.Remember), and the person is told that the run
// keeps its pinned gates. With repin (`planx resume --repin`) the edit
// becomes the run's judge instead.
func (r *runner) noteHandConfig(ctx context.Context, repin bool) error {
	if err := handconfig.Remember(ctx, r.repo, r.st, r.expect); err != nil {
		return err
	}
	if repin {
		return r.repin()
	}
	if n := handconfig.Notice(r.repo.Root, r.st.Pinned, handconfig.Holds(r.repo.Root, r.st)); n != "" {
		r.out.Println("planx: %s", n)
	}
	return nil
}

// repin makes .planx.yaml, as the person edited it while the run was
// stopped, the run's judge from now on: only at their explicit request
// (`planx resume --repin`), and never for a change a task made, which
// would let a task loosen its own checks. The hooks directory, the
// identity, the plan's front-matter gates and the --gate flags stay as
// pinned; the edit itself stays uncommitted (package handconfig). The execution
// log records the re-pin.
func (r *runner) repin() error {
	if !handconfig.Holds(r.repo.Root, r.st) {
		if handconfig.Notice(r.repo.Root, r.st.Pinned, false) == "" {
			r.out.Println("planx: --repin: %s says what the run started with; nothing to re-pin", gates.ConfigFile)
			return nil
		}
		return fmt.Errorf("%w: --repin takes only an edit of %s you made while the run was stopped, and this change came with a task's work (or the file changed again since your edit); `planx abort` and run the plan again to use it",
			gitops.ErrRepoState, gates.ConfigFile)
	}
	cfg, err := gates.LoadConfig(r.repo.Root)
	if err != nil {
		return fmt.Errorf("%w: --repin: %v", planparse.ErrInvalid, err)
	}
	gs, err := gates.ForPlan(cfg, r.Plan, r.GateFlags)
	if err != nil {
		return err
	}
	j := *r.pinned
	j.Config, j.Gates = cfg, gs
	r.pinned, r.st.Pinned, r.Config, r.Gates = &j, &j, cfg, gs
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
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.Name + ": " + g.Command
	}
	what := fmt.Sprintf("gates and settings re-pinned from %s as edited while the run was stopped: %s", gates.ConfigFile, cmp.Or(strings.Join(names, "; "), "no gates"))
	r.log.Issues = append(r.log.Issues, execlog.Issue{Task: string(r.st.Current), What: what, Time: r.o.now(), Resolution: "accepted: `planx resume --repin`"})
	r.out.Println("planx: %s", what)
	return nil
}
