package verify

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// planx's local records (.git/planx/records: the trees its gates passed on,
// the commits it made) decide what a resume re-gates and what verify
// vouches for, and an executor runs with the user's rights, so it could
// write a passing record for the tree of broken work and have the next
// `planx resume` skip the gates. Records are therefore never a task's
// output: planx marks the file system's time just before an executor
// starts (the mark is saved in the run state first, so that it outlives a
// crash or a kill of planx by the executor) and, once the executor has
// ended, anything under the records changed since the mark fails the task
// and the files are removed. planx writes no record while a mark is set.

// Records is the mark in the run state and the records it guards.
type Records struct {
	repo *gitops.Repo
	// st holds the mark (RecordsMark: 0 when none is set) and is saved in
	// repo when the mark is cleared. nil guards nothing: a wave's slot,
	// whose wave marks the records for all its tasks at once.
	st *runstate.State
}

// NewRecords guards repo's records with the run state st's mark (st nil:
// none, see Records).
func NewRecords(repo *gitops.Repo, st *runstate.State) Records {
	return Records{repo: repo, st: st}
}

// Mark sets the mark before an executor of t runs, first settling one a
// stopped run left (an executor planx never saw end). The caller saves
// the state, with what else it notes before the executor starts.
func (g Records) Mark(t *planparse.Task) error {
	if g.st == nil {
		return nil
	}
	if err := g.Untouched(t); err != nil {
		return err
	}
	m, err := records.Of(g.repo).Mark()
	if err != nil {
		return fmt.Errorf("mark the records before %s: %w", t.ID, err)
	}
	g.st.RecordsMark = m
	return nil
}

// Forget clears the mark without looking: the executor ran where it could
// not write the git directory (sandbox.Full, or a task space), so whatever the records show
// since the mark is another run's (a run in another linked work tree of
// the repository), not the executor's, and must not be taken from it.
func (g Records) Forget() error {
	if g.st == nil || g.st.RecordsMark == 0 {
		return nil
	}
	g.st.RecordsMark = 0
	return g.st.Save(g.repo)
}

// Untouched settles the mark once the executor of t has ended (or, on
// resume, when it was in flight when the run stopped): records written
// since fail the task and are removed. The mark is cleared in the saved
// state before planx writes records of its own.
func (g Records) Untouched(t *planparse.Task) error {
	what, err := g.Settle()
	if err != nil {
		return fmt.Errorf("check the records after %s: %w", t.ID, err)
	}
	if what == "" {
		return nil
	}
	return &outcome.Failure{What: "the task " + what}
}

// Settle looks at the records since the mark, removes what was written,
// clears the mark (saved) and says what was written ("" for nothing, or
// no mark).
func (g Records) Settle() (string, error) {
	if g.st == nil || g.st.RecordsMark == 0 {
		return "", nil
	}
	m := g.st.RecordsMark
	written, err := records.Of(g.repo).WrittenSince(m)
	if err != nil {
		return "", err
	}
	var dropped []string
	if len(written) > 0 {
		if dropped, err = records.Of(g.repo).DropWrittenSince(m); err != nil {
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
