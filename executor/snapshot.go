package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
)

// Attempt snapshots. When a task's attempt starts, the work tree is recorded
// as a commit (AttemptPre: planx's last commit itself when the tree is
// clean, which costs nothing); when the attempt stops (failure, interrupt,
// manual wait, or, after a crash, the next planx command that finds it) the
// work tree is recorded again (AttemptStop, a child of AttemptPre) under
// refs/planx/runs/<run-id>/stops/<n>-<task>. Trees are written with a
// temporary index, so the user's index is never touched.
//
// What the attempt changed is AttemptPre → AttemptStop; what a person
// changed since the stop is AttemptStop → the tree now. `resume`, `--retry`
// and `skip` decide from these two diffs, so they never discard bytes a
// person wrote after the stop, and what they discard stays in the stop ref.

// beginAttempt records the tree the attempt starts from. A resumed attempt
// (its work already in the tree) keeps the start of the one it resumes, so
// that a later --retry can still discard what that one left.
func (r *runner) beginAttempt(ctx context.Context, t *planparse.Task, resumed bool) error {
	if resumed && r.st.AttemptPre != "" {
		r.st.AttemptStop, r.st.StopRef = "", ""
		return nil
	}
	r.st.AttemptPre, r.st.AttemptStop, r.st.StopRef = r.expect, "", ""
	if len(r.dirty) == 0 {
		return nil // the tree is planx's last commit: nothing to write
	}
	pre, err := r.repo.Snapshot(ctx, fmt.Sprintf("planx: work tree before %s of run %s\n", t.ID, r.st.RunID), r.expect)
	if err != nil {
		return fmt.Errorf("record the tree before %s: %w", t.ID, err)
	}
	r.st.AttemptPre = pre
	return nil
}

// recordStop records the tree at the stop and keeps it under a ref. It is
// called when a task stops, and by resume/skip when a crash stopped it
// without a record. Without a record of the attempt's start it does nothing.
func (r *runner) recordStop(ctx context.Context, id planparse.TaskID, why string) error {
	if r.st.AttemptPre == "" {
		return nil
	}
	msg := fmt.Sprintf("planx: work tree at the stop of %s (%s)\n\n%s: %s\n", id, why, record.TrailerRun, r.st.RunID)
	stop, err := r.repo.Snapshot(ctx, msg, r.st.AttemptPre)
	if err != nil {
		return fmt.Errorf("record the tree at the stop of %s: %w", id, err)
	}
	r.st.Stops++
	ref := fmt.Sprintf("refs/planx/runs/%s/stops/%d-%s", r.st.RunID, r.st.Stops, id)
	if err := r.repo.Refs().Update(ctx, ref, stop, "", "planx: work tree at a stop"); err != nil {
		return fmt.Errorf("record the tree at the stop of %s: %w", id, err)
	}
	r.st.AttemptStop, r.st.StopRef = stop, ref
	return nil
}

// attemptDelta is what the stopped attempt changed and what a person
// changed since it stopped.
type attemptDelta struct {
	pre     gitops.SHA
	ref     string   // keeps the tree at the stop
	changed []string // by the attempt
	edited  []string // since the stop
}

// delta compares the attempt's start, its stop and the tree now. A stop a
// crash left unrecorded is recorded now: planx cannot tell a person's later
// edits from the attempt's then, and says so.
func (r *runner) delta(ctx context.Context, id planparse.TaskID) (attemptDelta, error) {
	if r.st.AttemptPre == "" {
		r.st.AttemptPre = r.expect
	}
	if r.st.AttemptStop == "" {
		if err := r.recordStop(ctx, id, "found after a crash"); err != nil {
			return attemptDelta{}, err
		}
		r.out.println("planx: %s stopped without a record (crash); the work tree as found now is kept at %s", id, r.st.StopRef)
	}
	d := attemptDelta{pre: r.st.AttemptPre, ref: r.st.StopRef}
	now, err := r.repo.Snapshot(ctx, "planx: work tree at resume\n", r.st.AttemptStop)
	if err != nil {
		return d, fmt.Errorf("compare the work tree with the stop of %s: %w", id, err)
	}
	if d.changed, err = r.repo.History().ChangedFiles(ctx, d.pre, r.st.AttemptStop); err != nil {
		return d, err
	}
	if d.edited, err = r.repo.History().ChangedFiles(ctx, r.st.AttemptStop, now); err != nil {
		return d, err
	}
	d.changed, d.edited = r.notOwn(d.changed), r.notOwn(d.edited)
	return d, nil
}

// notOwn drops planx's own files: the log is rewritten at every stop, and
// the plan is the person's to edit (its changes are drift, never discarded).
func (r *runner) notOwn(paths []string) []string {
	return slices.DeleteFunc(paths, func(p string) bool {
		return p == r.planRel || (r.log != nil && p == r.log.Path)
	})
}

// discardAttempt puts back, as they were before the attempt, the paths the
// attempt changed that still hold exactly what it left; paths a person
// changed since the stop are kept. It says what it did and where the
// discarded bytes are kept.
func (r *runner) discardAttempt(ctx context.Context, d attemptDelta) error {
	var drop, kept []string
	for _, p := range d.changed {
		if slices.Contains(d.edited, p) {
			kept = append(kept, p)
		} else {
			drop = append(drop, p)
		}
	}
	if err := r.repo.RestorePaths(ctx, d.pre, drop); err != nil {
		return fmt.Errorf("discard the attempt: %w", err)
	}
	if len(drop) > 0 {
		r.out.println("planx: discarded what the attempt left in %s (kept at %s)", listPaths(drop), d.ref)
	}
	if len(kept) > 0 {
		r.out.println("planx: kept %s: changed since the stop", listPaths(kept))
	}
	r.st.AttemptStop, r.st.StopRef = "", ""
	return nil
}

// refuseOverEdits is resume's answer when re-executing a task would run over
// bytes a person wrote after the stop.
func (r *runner) refuseOverEdits(id planparse.TaskID, d attemptDelta) error {
	return fmt.Errorf("%w: %s stopped in the middle of executing (%s) and %s changed since; planx will not run it again over them.\n"+
		"  `planx resume --retry` runs it again keeping them (it discards only what the attempt left untouched, kept at %s),\n"+
		"  `planx skip` skips the task keeping them, `planx abort` ends the run",
		gitops.ErrRepoState, id, r.st.Status, listPaths(d.edited), d.ref)
}

func listPaths(ps []string) string {
	if len(ps) > 8 {
		return strings.Join(ps[:8], ", ") + fmt.Sprintf(" and %d more", len(ps)-8)
	}
	return strings.Join(ps, ", ")
}
