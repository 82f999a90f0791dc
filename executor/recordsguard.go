package executor

import (
	"fmt"
	"strings"

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
// Tasks of parallel waves are shell tasks only, during which planx writes
// the records of finished tasks itself: they are not marked.

// markRecords sets the mark before an executor runs, first settling one a
// stopped run left (an executor planx never saw end).
func (r *runner) markRecords(t *planparse.Task) error {
	if err := r.recordsUntouched(t); err != nil {
		return err
	}
	m, err := r.repo.MarkRecords()
	if err != nil {
		return fmt.Errorf("mark the records before %s: %w", t.ID, err)
	}
	r.st.RecordsMark = m
	return nil
}

// recordsUntouched settles the mark once the executor has ended (or, on
// resume, when it was in flight when the run stopped): records written
// since fail the task and are removed. The mark is cleared in the saved
// state before planx writes records of its own.
func (r *runner) recordsUntouched(t *planparse.Task) error {
	m := r.st.RecordsMark
	if m == 0 {
		return nil
	}
	written, err := r.repo.RecordsWrittenSince(m)
	if err != nil {
		return fmt.Errorf("check the records after %s: %w", t.ID, err)
	}
	var dropped []string
	if len(written) > 0 {
		if dropped, err = r.repo.DropRecordsWrittenSince(m); err != nil {
			return fmt.Errorf("remove the records written during %s: %w", t.ID, err)
		}
	}
	r.st.RecordsMark = 0
	if err := r.st.save(r.repo); err != nil {
		return err
	}
	if len(written) == 0 {
		return nil
	}
	what := fmt.Sprintf("the task wrote planx's records (%s); they are planx's evidence of what its gates passed, never a task's output", strings.Join(written, ", "))
	if len(dropped) > 0 {
		what += "; planx removed the files written: " + strings.Join(dropped, ", ")
	}
	return &taskFailure{what: what}
}
