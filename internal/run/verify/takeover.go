package verify

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// A task that adds code deciding whether the tests run (judge.Takeovers:
// an init that ends the process, a module that skips every test, a
// question whether a test runner runs the code) weakens the judge.

// Takeover fails the task when one of the Go or Python files it changed
// has more of those statements than it had at the task's start, or, in
// code other than tests, more questions whether a test runner runs it.
// An executor other than an agent is the user's own: it is warned.
func (w Work) Takeover(ctx context.Context) error {
	var bad []string
	for _, p := range w.Files {
		if !judge.Scans(p) {
			continue
		}
		after, err := os.ReadFile(w.path(p))
		if err != nil {
			continue // deleted: runs nothing
		}
		now := judge.Takeovers(p, after)
		if len(now) == 0 {
			continue
		}
		before, _ := w.Repo.History().ShowFile(ctx, w.Base, p)
		if len(now) > len(judge.Takeovers(p, before)) {
			bad = append(bad, fmt.Sprintf("%s (%s)", p, now[0]))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	msg := "the task weakened the judge: code that decides whether the tests run, in " + strings.Join(bad, ", ")
	if w.Kind == planparse.KindAgent {
		return &outcome.Failure{What: msg}
	}
	hall.Warn(w.Desk, w.Task.ID, msg+" (allowed: a "+string(w.Kind)+" task is the user's own)")
	return nil
}
