package verify

import (
	"context"
	"os"

	"github.com/planx-dev/planx/internal/judge"
)

// An agent that runs the formatter over the repository rewrites test files
// it was not asked to touch; judge.FormatOnly tells that from a change to
// what the tests say.

// reformatted reports whether the file p of the work tree differs from
// its version at the task's start in its formatting alone.
func (w Work) reformatted(ctx context.Context, p string) bool {
	before, err := w.Repo.History().ShowFile(ctx, w.Base, p)
	if err != nil {
		return false
	}
	after, err := os.ReadFile(w.path(p))
	return err == nil && judge.FormatOnly(p, before, after)
}
