package wave

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// Work is a wave task's result, in plan order, for the merge chain.
type Work struct {
	ID     planparse.TaskID
	Commit gitops.SHA // its work: a commit whose parent is the wave's base
	Failed bool       // it failed in its work tree: nothing to integrate
}

// StageFunc makes the task commit of works[i] on parent with the merged
// tree, moving no ref, and returns it. final says it is the run's last
// commit: the last task of the run's last wave, with no task of the wave
// failed. An *outcome.Failure refuses the task (a commit hook did), as a
// conflict does.
type StageFunc func(ctx context.Context, i int, merged, parent gitops.SHA, final bool) (gitops.SHA, error)

// Chain stages a wave's results one at a time in plan order on base, each
// as its own commit made by a three-way merge onto the chain so far (no
// work tree involved). A task whose changes conflict with those staged
// before it, or whose commit stage refuses, is not staged: its failure is
// in fails, at its index, and the chain goes on without it. last says the
// wave is the run's last. An error stops the chain at works[at].
func Chain(ctx context.Context, repo *gitops.Repo, base gitops.SHA, works []Work, last bool, stage StageFunc) (fails []*outcome.Failure, at int, err error) {
	fails = make([]*outcome.Failure, len(works))
	anyFailed := false
	for _, w := range works {
		anyFailed = anyFailed || w.Failed
	}
	tip := base
	var ids []string // the tasks staged so far
	for i, w := range works {
		if w.Failed {
			continue
		}
		merged, conflicts, err := repo.Objects().MergeTrees(ctx, tip, w.Commit)
		if err != nil {
			return fails, i, err
		}
		if len(conflicts) > 0 {
			// With no task of the wave before it, what it conflicts with is
			// the branch: commits made there after its work tree was (a
			// person's, which the wave lands on when the run goes on).
			with := "the branch's commits made after its work tree was"
			if len(ids) > 0 {
				with = "the tasks integrated before it (" + strings.Join(ids, ", ") + ")"
			}
			fails[i] = &outcome.Failure{What: fmt.Sprintf("its changes conflict with %s in: %s", with, strings.Join(conflicts, ", "))}
			anyFailed = true
			continue
		}
		final := last && i == len(works)-1 && !anyFailed
		c, err := stage(ctx, i, merged, tip, final)
		if errors.As(err, &fails[i]) {
			anyFailed = true
			continue
		}
		if err != nil {
			return fails, i, err
		}
		tip = c
		ids = append(ids, string(w.ID))
	}
	return fails, -1, nil
}
