package executor

import (
	"context"
	"os"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/judge"
)

// An agent that runs the formatter over the repository rewrites test files
// it was not asked to touch; judge.FormatOnly tells that from a change to
// what the tests say.

// reformatted reports whether the file p of the work tree of repo differs
// from its version in base in its formatting alone.
func reformatted(ctx context.Context, repo *gitops.Repo, base gitops.SHA, p string) bool {
	before, err := repo.History().ShowFile(ctx, base, p)
	if err != nil {
		return false
	}
	after, err := os.ReadFile(relJoin(repo.Root, p))
	return err == nil && judge.FormatOnly(p, before, after)
}
