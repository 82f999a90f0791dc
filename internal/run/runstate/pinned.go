package runstate

import (
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
