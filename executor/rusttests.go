package executor

import (
	"context"
	"os"
	"strings"

	"github.com/planx-dev/planx/judge"
	"github.com/planx-dev/planx/planparse"
)

// Rust keeps its unit tests in the file they test, where the test-file
// globs cannot see them: judge.InlineTestChanges reads them.

// inlineTestChanges lists how the task changed the inline tests of the
// Rust files it changed, as checkJudge reports protected paths.
func (r *runner) inlineTestChanges(ctx context.Context, t *planparse.Task, files []string) []string {
	var out []string
	for _, p := range files {
		if !strings.HasSuffix(p, ".rs") {
			continue
		}
		before, err := r.repo.History().ShowFile(ctx, r.expect, p)
		if err != nil {
			continue // new file: its tests are new
		}
		after, _ := os.ReadFile(relJoin(r.repo.Root, p))
		out = append(out, judge.InlineTestChanges(p, before, after, t.Title+"\n"+t.Body)...)
	}
	return out
}
