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

// An agent that builds and tests leaves files the repository's ignore rules
// ignore (bin/, .coverage, __pycache__/, dist/): outputs, not hidden work.
// Work is hidden when only a rule the task itself wrote (a new .gitignore
// line, a new .gitignore) ignores it; the commit must also stand without
// the outputs, so the gates judge it in a clean checkout (cleangates.go).

// newIgnored returns what the agent hid behind ignore rules of its own, as
// the failure's clauses, and notes its outputs on the turn: the ignored
// entries that were not there before it ran, split by whether the rules in
// force before it ignore them.
func (tu *turn) newIgnored(ctx context.Context) ([]string, error) {
	r, w := tu.r, tu.watch
	now, err := r.repo.Index().IgnoredFiles(ctx)
	if err != nil {
		return nil, err
	}
	fresh := minus(now, w.Ignored)
	tu.outputs = nil
	if len(fresh) == 0 {
		return nil, nil
	}
	var old []string
	if w.Rules != nil {
		if old, err = r.repo.Index().IgnoredUnder(ctx, *w.Rules, fresh); err != nil {
			return nil, err
		}
	} else {
		// A watch an older planx saved, without the rules: what tools are
		// known to make counts as output.
		old = slices.DeleteFunc(slices.Clone(fresh), func(p string) bool { return !buildOutput(p) })
	}
	var own, seen []string
	for _, p := range fresh {
		switch {
		case !slices.Contains(old, p):
			own = append(own, p)
		case r.o.GatesIn == GatesTree && !buildOutput(p):
			seen = append(seen, p)
		default:
			tu.outputs = append(tu.outputs, p)
		}
	}
	var bad []string
	if len(own) > 0 {
		bad = append(bad, "created files git ignores by rules the task wrote, which the commit would leave out: "+strings.Join(own, ", "))
	}
	if len(seen) > 0 {
		// The gates run where the files are (--clean-gates=false): they
		// could pass on what the commit leaves out.
		bad = append(bad, "created files git ignores, which the commit would leave out and the gates, run in the work tree (--clean-gates=false), would see: "+strings.Join(seen, ", "))
	}
	return bad, nil
}
