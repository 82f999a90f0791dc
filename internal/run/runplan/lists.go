package runplan

import (
	"context"
	"maps"
	"slices"

	"github.com/planx-dev/planx/gitops"
)

// lists are what a deletion can take from the repository, listed once,
// when first asked: only a step that deletes in the repository asks, and
// listing a large tree is not free.
type lists struct {
	ignoredList, trackedList []string
	ignoredRead, trackedRead bool
}

// ignored are the work tree's ignored entries.
func (l *lists) ignored(ctx context.Context, repo *gitops.Repo) []string {
	if !l.ignoredRead {
		l.ignoredRead = true
		l.ignoredList, _ = repo.Index().IgnoredEntries(ctx)
	}
	return l.ignoredList
}

// tracked are the files git tracks at HEAD (the files of a commit are
// those a deletion can take from the history's view; one staged but never
// committed is rare to delete at once); none on an unborn branch.
func (l *lists) tracked(ctx context.Context, repo *gitops.Repo) []string {
	if !l.trackedRead {
		l.trackedRead = true
		if ps, err := repo.Objects().TreePaths(ctx, "HEAD"); err == nil {
			l.trackedList = slices.Sorted(maps.Keys(ps))
		}
	}
	return l.trackedList
}
