package recovery

import (
	"fmt"

	"github.com/planx-dev/planx/gitops"
)

// ErrNoRun: resume, skip or abort where no run is stopped (exit 5, as a
// gitops.ErrRepoState).
var ErrNoRun = fmt.Errorf("%w: no stopped run here; start one with `planx run PLAN`", gitops.ErrRepoState)
