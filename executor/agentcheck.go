package executor

import (
	"fmt"
	"os/exec"

	"github.com/planx-dev/planx/agent"
	"github.com/planx-dev/planx/planparse"
)

// checkAgentTool refuses, before the rollback commit, a run whose agent
// tasks use a preset whose program is not on PATH: found only at the first
// agent task, the run would stop half done for want of an install. Children
// get planx's PATH (see baseEnvNames), so planx's lookup is theirs.
func (r *runner) checkAgentTool(tasks []*planparse.Task) error {
	spec := r.agentSpec()
	tool := agent.Tool(spec)
	if tool == "" {
		return nil // no agent, or a custom command: bash reports a missing one
	}
	for _, t := range tasks {
		if r.executorFor(t) != "agent" {
			continue
		}
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%w: task %s runs the agent preset %q, but %q is not on PATH; install it (see docs/agents.md) or choose another agent with --agent",
				ErrAgentMissing, t.ID, spec, tool)
		}
		return nil
	}
	return nil
}
