package handconfig

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// Repin is `planx resume --repin`: .planx.yaml, as the person edited it
// while the run st was stopped, becomes the run's judge from now on. Only
// at their explicit request, and never for a change a task made, which
// would let a task loosen its own checks. The hooks directory, the
// identity, the plan's front-matter gates and the --gate flags (flags) stay
// as pinned (taken from pinned, the run's pin); the edit itself stays
// uncommitted (Unstaged).
//
// It returns the new pin and what the execution log records of it; or no
// pin and what to tell the person when the file says what the run started
// with.
func Repin(root string, st *runstate.State, pinned *runstate.Pinned, plan *planparse.Plan, flags []string) (*runstate.Pinned, string, error) {
	if !Holds(root, st) {
		if Notice(root, st.Pinned, false) == "" {
			if b := plan.Budget.Or(pinned.Config.Budget); b != pinned.Budget {
				// The plan's budget, raised in its front matter while
				// the run was stopped: the one setting of the plan a
				// re-pin takes.
				j := *pinned
				j.Budget = b
				return &j, "budget re-pinned from the plan's front matter: " + b.String(), nil
			}
			return nil, fmt.Sprintf("--repin: %s says what the run started with; nothing to re-pin", gates.ConfigFile), nil
		}
		return nil, "", fmt.Errorf("%w: --repin takes only an edit of %s you made while the run was stopped, and this change came with a task's work (or the file changed again since your edit); `planx abort` and run the plan again to use it",
			gitops.ErrRepoState, gates.ConfigFile)
	}
	cfg, err := gates.LoadConfig(root)
	if err != nil {
		return nil, "", fmt.Errorf("%w: --repin: %v", planparse.ErrInvalid, err)
	}
	gs, err := gates.ForPlan(cfg, plan, flags)
	if err != nil {
		return nil, "", err
	}
	j := *pinned
	j.Config, j.Gates, j.Budget = cfg, gs, plan.Budget.Or(cfg.Budget)
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.Name + ": " + g.Command
	}
	what := fmt.Sprintf("gates and settings re-pinned from %s as edited while the run was stopped: %s", gates.ConfigFile, cmp.Or(strings.Join(names, "; "), "no gates"))
	return &j, what, nil
}
