package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// Ignored files are in no commit, not even the rollback commit: a task that
// deletes them (git clean -fdx) or stashes them (git stash -a) takes bytes
// planx cannot give back. The run notes which exist when it starts and
// names any a task made disappear, so the person knows at once.

// noteIgnored records the ignored entries that exist now, as the
// preflight's survey saw them when it is still current.
func (r *runner) noteIgnored(ctx context.Context) {
	if r.survey != nil {
		r.ignored = r.survey.Ignored
		return
	}
	ps, err := r.repo.Index().IgnoredEntries(ctx)
	if err == nil {
		r.ignored = ps
	}
}

// checkIgnored warns about ignored entries the task made disappear.
func (r *runner) checkIgnored(t *planparse.Task) {
	var gone []string
	for _, p := range r.ignored {
		if _, err := os.Lstat(relJoin(r.repo.Root, strings.TrimSuffix(p, "/"))); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, p)
		}
	}
	if len(gone) == 0 {
		return
	}
	r.ignored = slices.DeleteFunc(r.ignored, func(p string) bool { return slices.Contains(gone, p) })
	msg := fmt.Sprintf("the task removed %d ignored path(s) that no commit holds (git clean -x? git stash -a? `git stash list` may have them): %s",
		len(gone), listPaths(gone))
	r.log.Issues = append(r.log.Issues, r.issue(t.ID, msg))
	r.out.warn(t.ID, msg)
}
