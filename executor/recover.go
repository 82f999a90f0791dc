package executor

import (
	"context"
	"slices"

	"github.com/planx-dev/planx/gitops"
)

// recordAttempt notes in the state what the stopped attempt changed, so that
// `resume --retry` and `skip` discard exactly that: never a path that was
// dirty before the attempt, never one a person creates afterwards.
func (r *runner) recordAttempt(ctx context.Context) {
	changes, err := r.repo.Status(ctx)
	if err != nil {
		return // the state keeps no record; discarding will then change nothing
	}
	r.st.Attempt = r.attemptFiles(changes)
}

func (r *runner) attemptFiles(changes []gitops.Change) []AttemptFile {
	var out []AttemptFile
	for _, c := range changes {
		if c.Path == r.log.Path || slices.Contains(r.st.PreExisting, c.Path) {
			continue
		}
		if c.Path == r.planRel && r.planUnchanged() {
			continue
		}
		// Untracked, or added to the index but absent from HEAD: created.
		created := c.Index == '?' || c.Index == 'A'
		out = append(out, AttemptFile{Path: c.Path, InHead: !created})
	}
	return out
}

// discard undoes the recorded attempt.
func (r *runner) discard(ctx context.Context, files []AttemptFile) error {
	var inHead, created []string
	for _, f := range files {
		if f.InHead {
			inHead = append(inHead, f.Path)
		} else {
			created = append(created, f.Path)
		}
	}
	if err := r.repo.Discard(ctx, inHead, created); err != nil {
		return err
	}
	r.st.Attempt = nil
	return nil
}

// dirtyPaths lists the paths git reports changed, less planx's own log.
func (r *runner) dirtyPaths(changes []gitops.Change) []string {
	var out []string
	for _, c := range changes {
		if r.log == nil || c.Path != r.log.Path {
			out = append(out, c.Path)
		}
	}
	return out
}
