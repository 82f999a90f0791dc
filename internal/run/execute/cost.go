package execute

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/space"
)

// attemptCost is what an agent's attempt cost: a preset's from its
// transcript, a custom command's from the usage file it may write at
// usagePath (PLANX_USAGE_FILE). A usage file planx cannot read is an
// error: a budget that silently counted nothing would not bound anything.
func attemptCost(meter *agent.Meter, cmd agent.Command, usagePath string) (record.Cost, error) {
	if cmd.Transcript != agent.NoTranscript {
		c, _ := meter.Cost()
		return c, nil
	}
	c, _, err := agent.ReadUsageFile(usagePath)
	if err != nil {
		return record.Cost{}, fmt.Errorf("the agent's %w", err)
	}
	return c, nil
}

// spaceFile is where a file the agent wrote at path in its task space is
// read from: the space's upper layer when it wrote it there.
func spaceFile(sp *space.Space, path string) string {
	if p, ok := sp.UpperOf(path); ok {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return path
}

// budgetFailure is the failure of a task whose agent went over the
// budget (over says which and by how much): the agent was stopped, or
// had ended, and its work is kept for a person; never retried, since a
// retry spends more of what is already spent.
func budgetFailure(over string, res proc.Result, hint string) error {
	return &outcome.Failure{What: "over budget: " + over, Tail: res.Tail, Budget: true, Hint: hint}
}

// followFile is the file a wave's agent can be followed in: its output
// file, or for a preset with a transcript a file beside it (.txt) that
// meter writes its readable lines to as well; close closes it.
func followFile(output string, cmd agent.Command, meter *agent.Meter) (path string, close func()) {
	if cmd.Transcript == agent.NoTranscript {
		return output, func() {}
	}
	path = strings.TrimSuffix(output, ".log") + ".txt"
	f, err := os.Create(path)
	if err != nil {
		return output, func() {} // the transcript itself can be followed still
	}
	if meter.Out != nil {
		meter.Out = io.MultiWriter(meter.Out, f)
	} else {
		meter.Out = f
	}
	return path, func() { _ = f.Close() }
}
