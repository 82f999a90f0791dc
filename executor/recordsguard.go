package executor

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
)

// planx's local records (.git/planx/records: the trees its gates passed on,
// the commits it made) decide what a resume re-gates and what verify
// vouches for, and an executor runs with the user's rights, so it could
// write a passing record for the tree of broken work and have the next
// `planx resume` skip the gates. Records are therefore never a task's
// output: planx marks the file system's time just before an agent starts
// (or a parallel wave's steps) (the mark is saved in the run state first, so that it outlives a
// crash or a kill of planx by the executor) and, once the executor has
// ended, anything under the records changed since the mark fails the task
// and the files are removed. planx writes no record while a mark is set.
// A parallel wave's tasks run at once under one mark (wave.records): planx
// records their gates once they have all ended, and a forgery, which
// cannot be told to one of them, fails all that ran.

// recordsGuard is the mark in the run state and the records it guards.
type recordsGuard struct {
	repo *gitops.Repo
	st   *runstate.State
}

func (r *runner) recordsGuard() recordsGuard { return recordsGuard{repo: r.repo, st: r.st} }

// mark sets the mark before an executor runs, first settling one a
// stopped run left (an executor planx never saw end).
func (g recordsGuard) mark(t *planparse.Task) error {
	if err := g.untouched(t); err != nil {
		return err
	}
	m, err := g.repo.Records().Mark()
	if err != nil {
		return fmt.Errorf("mark the records before %s: %w", t.ID, err)
	}
	g.st.RecordsMark = m
	return nil
}

// forget clears the mark without looking: the executor ran where it could
// not write the git directory (sandbox.Full), so whatever the records show
// since the mark is another run's (a run in another linked work tree of
// the repository), not the executor's, and must not be taken from it.
func (g recordsGuard) forget() error {
	if g.st.RecordsMark == 0 {
		return nil
	}
	g.st.RecordsMark = 0
	return g.st.Save(g.repo)
}

// untouched settles the mark once the executor has ended (or, on
// resume, when it was in flight when the run stopped): records written
// since fail the task and are removed. The mark is cleared in the saved
// state before planx writes records of its own.
func (g recordsGuard) untouched(t *planparse.Task) error {
	what, err := g.settle()
	if err != nil {
		return fmt.Errorf("check the records after %s: %w", t.ID, err)
	}
	if what == "" {
		return nil
	}
	return &outcome.Failure{What: "the task " + what}
}

// settle looks at the records since the mark, removes what was
// written, clears the mark (saved) and says what was written ("" for
// nothing, or no mark).
func (g recordsGuard) settle() (string, error) {
	m := g.st.RecordsMark
	if m == 0 {
		return "", nil
	}
	written, err := g.repo.Records().WrittenSince(m)
	if err != nil {
		return "", err
	}
	var dropped []string
	if len(written) > 0 {
		if dropped, err = g.repo.Records().DropWrittenSince(m); err != nil {
			return "", err
		}
	}
	g.st.RecordsMark = 0
	if err := g.st.Save(g.repo); err != nil {
		return "", err
	}
	if len(written) == 0 {
		return "", nil
	}
	what := fmt.Sprintf("wrote planx's records (%s); they are planx's evidence of what its gates passed, never a task's output", strings.Join(written, ", "))
	if len(dropped) > 0 {
		what += "; planx removed the files written: " + strings.Join(dropped, ", ")
	}
	return what, nil
}

// records settles the mark of a wave's executors (or one a stopped wave
// left) and, when run is true, sets a new one for the executors about to
// run. A forgery fails every task of the wave that has not failed: the
// executors ran at once, so which one wrote cannot be told.
func (wv *wave) records(run bool) error {
	r := wv.r
	what, err := r.recordsGuard().settle()
	if err != nil {
		return err
	}
	if what != "" {
		for _, it := range wv.its {
			if it.fail == nil && it.err == nil {
				it.fail = &outcome.Failure{What: "a task of its parallel wave (they ran at once: which one cannot be told) " + what}
			}
		}
	}
	if !run {
		return nil
	}
	m, err := r.repo.Records().Mark()
	if err != nil {
		return err
	}
	r.st.RecordsMark = m
	return r.st.Save(r.repo)
}
