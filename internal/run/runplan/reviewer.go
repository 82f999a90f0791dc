package runplan

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/planparse"
)

// RefuseSameReviewer refuses, before anything changes, a review gate whose
// reviewer is the agent that does the tasks: the same preset (or command)
// and the same model would grade its own work, with its own blind spots.
// The error names the file and line of `review:`.
func (s *Setup) RefuseSameReviewer() error {
	rv, spec := s.Config.Review, s.AgentSpec()
	if !rv.On() || strings.TrimSpace(spec) == "" {
		return nil
	}
	reviewer, doer := agent.Identity(rv.Agent, rv.Model), agent.Identity(spec, "")
	if reviewer != doer {
		return nil
	}
	return fmt.Errorf("%w: %w", planparse.ErrInvalid, &gates.ConfigError{File: rv.File, Line: rv.Line,
		Msg:  "review: the reviewer " + reviewer + " is the agent that does the tasks (same preset and model)",
		Hint: "name another preset, or another model: a review by the same agent repeats its blind spots"})
}
