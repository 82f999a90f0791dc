package runstart

import (
	"context"

	"github.com/planx-dev/planx/gitops"
)

// The preflight's git status of the whole tree (the secret scan, the
// ignored files, what the rollback commit stages) is the run's largest
// read before its first task: 3 ms at 200 files, 50 ms at 20,000. It only
// reads, like the history walk for done tasks (git log --grep) that comes
// before it, so the two run at once; both start once the run holds its
// lock, before which another run may still be changing the tree.

// Early is a Survey running in the background.
type Early struct {
	done  chan struct{}
	sv    gitops.Survey
	err   error
	taken bool
}

// StartSurvey starts the preflight's survey of repo.
func StartSurvey(ctx context.Context, repo *gitops.Repo) *Early {
	e := &Early{done: make(chan struct{})}
	go func() {
		defer close(e.done)
		e.sv, e.err = repo.Survey(ctx)
	}()
	return e
}

// take returns the survey started early (once), or runs one now.
func (e *Early) take(ctx context.Context, repo *gitops.Repo) (gitops.Survey, error) {
	if e == nil || e.taken {
		return repo.Survey(ctx)
	}
	<-e.done
	e.taken = true
	return e.sv, e.err
}

// Wait waits for a survey nobody took (the run stopped before its
// preflight), so that no git process outlives the run.
func (e *Early) Wait() {
	if e != nil {
		<-e.done
	}
}
