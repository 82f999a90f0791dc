package verify

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/secretscan"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Secrets fails an agent task whose work adds or changes a file that looks
// like a credential (by name, or a token in its content) that the task
// does not declare: the task commit would put it in every clone and every
// push, as the rollback commit would (runstart.CheckSecrets). An agent that copies
// the user's .env.local into the repository, or writes the key it was
// shown into a config file, is stopped here. Other executors get a
// warning: their steps are the user's.
func (w Work) Secrets() error {
	var present []string
	for _, p := range w.Files {
		if fileExists(w.path(p)) && !AnyCovers(w.Task.Files, p) {
			present = append(present, p)
		}
	}
	if len(present) == 0 {
		return nil
	}
	found, err := secretscan.Scan(w.Root, present)
	if err != nil {
		return fmt.Errorf("verify %s: look for secrets: %w", w.Task.ID, err)
	}
	if len(found) == 0 {
		return nil
	}
	var list []string
	for _, f := range found {
		list = append(list, textsafe.Line(f.Path)+" ("+f.Why+")")
	}
	msg := "the task's work holds likely secrets: " + strings.Join(list, ", ")
	if w.Kind == planparse.KindAgent {
		return &outcome.Failure{What: msg, Hint: "remove them from the work tree, or declare the file in the task's Files: if it is meant to be committed (a test fixture)"}
	}
	hall.Warn(w.Desk, w.Task.ID, msg)
	return nil
}
