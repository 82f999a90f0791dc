package executor

import (
	"fmt"

	"github.com/planx-dev/planx/gates"
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
}

// judge reads the judge from the repository as it stands now: for a run
// that starts.
func loadJudge(root string, plan *planparse.Plan, flags []string, hooksPath string) (*Judge, error) {
	cfg, err := gates.LoadConfig(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", planparse.ErrInvalid, err)
	}
	gs, err := mergeGates(cfg, plan, flags)
	if err != nil {
		return nil, err
	}
	return &Judge{Config: cfg, Gates: gs, HooksPath: hooksPath}, nil
}

// checkTaskGates refuses a plan whose tasks select gates the judge does not
// have: on resume the plan is read again, the gates are not.
func (j *Judge) checkTaskGates(plan *planparse.Plan) error {
	return unknownGates(j.Gates, plan)
}
