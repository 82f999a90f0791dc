package verify

import (
	"os"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// Work is one task's work as the checks read it.
type Work struct {
	Repo *gitops.Repo // the repository: its history holds the tree at the task's start
	// Root is the work tree that holds the task's work: the repository's,
	// or a wave task's own.
	Root  string
	Base  gitops.SHA // the commit the task started from: planx's last commit
	Task  *planparse.Task
	Kind  planparse.Kind // the task's executor
	Files []string       // the paths the task changed
	// Hand are those of Files a person changed after a stop that go with
	// the task (Attempt.HandOwn) and the stopped attempt did not change:
	// their edit alone, not the executor's.
	Hand []string
	// Desk records a finding let pass in the log, with why, and says
	// those let pass because the executor is the user's own (hall.Warn);
	// it asks the person whether a declared change of the plan, the
	// configuration or the log is theirs to commit.
	Desk hall.Desk
}

// path is p, a repository path, in the work tree.
func (w Work) path(p string) string { return fsutil.Under(w.Root, p) }

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
