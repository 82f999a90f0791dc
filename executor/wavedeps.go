package executor

// The package wave is imported as wavepkg: executor's wave type is the
// wave in flight.

import (
	"github.com/planx-dev/planx/gitops"
	wavepkg "github.com/planx-dev/planx/wave"
)

// dropRunWorktrees removes the work trees of the runs that are over
// (wave.DropRunWorktrees), leaving those of runs in progress in other work
// trees.
func dropRunWorktrees(repo *gitops.Repo) {
	wavepkg.DropRunWorktrees(repo, runsElsewhere(repo))
}
