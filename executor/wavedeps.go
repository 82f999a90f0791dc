package executor

// The package wave is imported as wavepkg: executor's wave type is the
// wave in flight.

import (
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/runstate"
	wavepkg "github.com/planx-dev/planx/wave"
)

// dropRunWorktrees removes the work trees of the runs that are over
// (wave.DropRunWorktrees), leaving those of runs in progress in other work
// trees.
func dropRunWorktrees(repo *gitops.Repo) {
	wavepkg.DropRunWorktrees(repo, runsElsewhere(repo))
}

// waveHooks are the commit hooks of the run's wave commits, with the hooks
// path and identity pinned at run start applied in a task's work tree.
func (r *runner) waveHooks() wavepkg.Hooks {
	h := wavepkg.Hooks{On: r.hooks, NoVerify: r.o.NoVerify, Dir: runstate.RunDir(r.repo, r.st.RunID), Refused: commitError}
	if j := r.st.Pinned; j != nil {
		h.Pin = j.Apply
	}
	return h
}
