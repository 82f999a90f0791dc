package verify

import (
	"context"
	"os"
	"strings"

	"github.com/planx-dev/planx/internal/judge"
)

// Rust keeps its unit tests in the file they test, where the test-file
// globs cannot see them: judge.InlineTestChanges reads them.

// inlineTestChanges lists how the task changed the inline tests of the
// Rust files it changed, as Judge reports protected paths.
func (w Work) inlineTestChanges(ctx context.Context) []string {
	var out []string
	for _, p := range w.Files {
		if !strings.HasSuffix(p, ".rs") {
			continue
		}
		before, err := w.Repo.History().ShowFile(ctx, w.Base, p)
		if err != nil {
			continue // new file: its tests are new
		}
		after, _ := os.ReadFile(w.path(p))
		out = append(out, judge.InlineTestChanges(p, before, after, w.Task.Title+"\n"+w.Task.Body)...)
	}
	return out
}
