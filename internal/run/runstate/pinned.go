package runstate

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// Pinned is what decides whether a task is done, taken once when a run
// starts and kept in the run state: the gates (from .planx.yaml, the plan's
// front matter and --gate flags), the rest of .planx.yaml (timeouts, env,
// protected paths) and the hooks path. Resume, retries and later tasks use
// it as it was, so a task that edits .planx.yaml, the front matter or
// ~/.gitconfig cannot loosen the judge of its own or any later task.
type Pinned struct {
	Config    gates.Config `json:"config"`
	Gates     []gates.Gate `json:"gates"`
	HooksPath string       `json:"hooks_path,omitempty"`
	// Identity is user.name and user.email as git read them at run start
	// ("" when unset): task commits keep the author they started with.
	Identity [2]string `json:"identity,omitempty"`
	// Budget is what agents may spend: the plan's `budget:` over the
	// configuration's, limit by limit (planparse.Budget.Or).
	Budget planparse.Budget `json:"budget,omitzero"`
}

// Apply makes every git command of repo use the pinned's hooks path and
// identity, whatever a task does to the git configuration later.
func (j *Pinned) Apply(repo *gitops.Repo) {
	if j.HooksPath != "" {
		repo.Config().Pin("core.hooksPath", j.HooksPath)
	}
	for i, key := range []string{"user.name", "user.email"} {
		if j.Identity[i] != "" {
			repo.Config().Pin(key, j.Identity[i])
		}
	}
}

// PinNow reads the judge from the repository as it stands now, in root:
// for a run that starts (repo nil: a dry run outside a repository, with
// nothing to pin but the configuration and the gates), and for a run
// whose state pinned nothing (started by a planx that did not pin).
func PinNow(ctx context.Context, repo *gitops.Repo, root string, plan *planparse.Plan, flags []string) (*Pinned, error) {
	cfg, err := gates.LoadConfig(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", planparse.ErrInvalid, err)
	}
	gs, err := gates.ForPlan(cfg, plan, flags)
	if err != nil {
		return nil, err
	}
	j := &Pinned{Config: cfg, Gates: gs, Budget: plan.Budget.Or(cfg.Budget)}
	if repo == nil {
		return j, nil
	}
	j.HooksPath = repo.Config().HooksPath()
	name, email := repo.Config().Identity(ctx)
	j.Identity = [2]string{strings.TrimSpace(name), strings.TrimSpace(email)}
	return j, nil
}
