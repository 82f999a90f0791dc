package executor

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

// earlySurvey is a Survey running in the background.
type earlySurvey struct {
	done chan struct{}
	sv   gitops.Survey
	err  error
}

// startSurvey starts the preflight's survey.
func (r *runner) startSurvey(ctx context.Context) {
	e := &earlySurvey{done: make(chan struct{})}
	r.early = e
	go func() {
		defer close(e.done)
		e.sv, e.err = r.repo.Survey(ctx)
	}()
}

// takeSurvey returns the survey started early, or runs one now.
func (r *runner) takeSurvey(ctx context.Context) (gitops.Survey, error) {
	if e := r.early; e != nil {
		<-e.done
		r.early = nil
		return e.sv, e.err
	}
	return r.repo.Survey(ctx)
}

// waitSurvey waits for a survey nobody took (the run stopped before its
// preflight), so that no git process outlives Run.
func (r *runner) waitSurvey() {
	if e := r.early; e != nil {
		<-e.done
	}
}
