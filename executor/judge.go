package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// Judge is what decides whether a task is done, taken once when a run
// starts and kept in the run state: the gates (from .planx.yaml, the plan's
// front matter and --gate flags), the rest of .planx.yaml (timeouts, env,
// protected paths) and the hooks path. Resume, retries and later tasks use
// it as it was, so a task that edits .planx.yaml, the front matter or
// ~/.gitconfig cannot loosen the judge of its own or any later task.
type Judge struct {
	Config    gates.Config `json:"config"`
	Gates     []gates.Gate `json:"gates"`
	HooksPath string       `json:"hooks_path,omitempty"`
	// Identity is user.name and user.email as git read them at run start
	// ("" when unset): task commits keep the author they started with.
	Identity [2]string `json:"identity,omitempty"`
}

// loadJudge reads the judge from the repository as it stands now: for a run
// that starts.
func loadJudge(ctx context.Context, repo *gitops.Repo, root string, plan *planparse.Plan, flags []string) (*Judge, error) {
	cfg, err := gates.LoadConfig(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", planparse.ErrInvalid, err)
	}
	gs, err := mergeGates(cfg, plan, flags)
	if err != nil {
		return nil, err
	}
	j := &Judge{Config: cfg, Gates: gs}
	if repo == nil {
		return j, nil // a dry run outside a repository: nothing to pin
	}
	j.HooksPath = repo.Config().HooksPath()
	name, email := repo.Config().Identity(ctx)
	j.Identity = [2]string{strings.TrimSpace(name), strings.TrimSpace(email)}
	return j, nil
}

// pin makes every git command of repo use the judge's hooks path and
// identity, whatever a task does to the git configuration later.
func (j *Judge) pin(repo *gitops.Repo) {
	if j.HooksPath != "" {
		repo.Config().Pin("core.hooksPath", j.HooksPath)
	}
	for i, key := range []string{"user.name", "user.email"} {
		if j.Identity[i] != "" {
			repo.Config().Pin(key, j.Identity[i])
		}
	}
}

// checkTaskGates refuses a plan whose tasks select gates the judge does not
// have: on resume the plan is read again, the gates are not.
func (j *Judge) checkTaskGates(plan *planparse.Plan) error {
	return unknownGates(j.Gates, plan)
}
