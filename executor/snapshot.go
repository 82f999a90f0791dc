package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/progress"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstate"
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

// stopRecords are those snapshots, kept in the run state (AttemptPre,
// AttemptStop, StopRef, Stops), with what they need of the run.
type stopRecords struct {
	repo    *gitops.Repo
	st      *runstate.State
	out     *progress.Progress
	planRel string
	logPath string // "" while the run has no log
}

// stops are the run's attempt snapshots.
func (r *runner) stops() stopRecords {
	s := stopRecords{repo: r.repo, st: r.st, out: r.out, planRel: r.planRel}
	if r.log != nil {
		s.logPath = r.log.Path
	}
	return s
}

// beginAttempt records the tree the attempt starts from. A resumed attempt
// (its work already in the tree) keeps the start of the one it resumes, so
// that a later --retry can still discard what that one left.
func (s stopRecords) beginAttempt(ctx context.Context, t *planparse.Task, resumed bool, expect gitops.SHA, dirty bool) error {
	if resumed && s.st.AttemptPre != "" {
		s.st.AttemptStop, s.st.StopRef = "", ""
		return nil
	}
	s.st.AttemptPre, s.st.AttemptStop, s.st.StopRef = expect, "", ""
	if !dirty {
		return nil // the tree is planx's last commit: nothing to write
	}
	pre, err := s.repo.Snapshot(ctx, fmt.Sprintf("planx: work tree before %s of run %s\n", t.ID, s.st.RunID), expect)
	if err != nil {
		return fmt.Errorf("record the tree before %s: %w", t.ID, err)
	}
	s.st.AttemptPre = pre
	return nil
}

// recordStop records the tree at the stop and keeps it under a ref. It is
// called when a task stops, and by resume/skip when a crash stopped it
// without a record. Without a record of the attempt's start it does nothing.
func (s stopRecords) recordStop(ctx context.Context, id planparse.TaskID, why string) error {
	if s.st.AttemptPre == "" {
		return nil
	}
	msg := fmt.Sprintf("planx: work tree at the stop of %s (%s)\n\n%s: %s\n", id, why, record.TrailerRun, s.st.RunID)
	stop, err := s.repo.Snapshot(ctx, msg, s.st.AttemptPre)
	if err != nil {
		return fmt.Errorf("record the tree at the stop of %s: %w", id, err)
	}
	s.st.Stops++
	ref := record.RunRef(s.st.RunID, fmt.Sprintf("stops/%d-%s", s.st.Stops, id))
	if err := s.repo.Refs().Update(ctx, ref, stop, "", "planx: work tree at a stop"); err != nil {
		return fmt.Errorf("record the tree at the stop of %s: %w", id, err)
	}
	s.st.AttemptStop, s.st.StopRef = stop, ref
	return nil
}

// attemptDelta is what the stopped attempt changed and what a person
// changed since it stopped.
type attemptDelta struct {
	pre     gitops.SHA
	now     gitops.SHA // the tree now, a child of the stop
	ref     string     // keeps the tree at the stop
	changed []string   // by the attempt
	edited  []string   // since the stop
}

// delta compares the attempt's start, its stop and the tree now. A stop a
// crash left unrecorded is recorded now: planx cannot tell a person's later
// edits from the attempt's then, and says so.
func (s stopRecords) delta(ctx context.Context, id planparse.TaskID, expect gitops.SHA) (attemptDelta, error) {
	if s.st.AttemptPre == "" {
		s.st.AttemptPre = expect
	}
	if s.st.AttemptStop == "" {
		if err := s.recordStop(ctx, id, "found after a crash"); err != nil {
			return attemptDelta{}, err
		}
		s.out.Println("planx: %s stopped without a record (crash); the work tree as found now is kept at %s", id, s.st.StopRef)
	}
	d := attemptDelta{pre: s.st.AttemptPre, ref: s.st.StopRef}
	var err error
	d.now, err = s.repo.Snapshot(ctx, fmt.Sprintf("planx: work tree at a recovery of %s\n\n%s: %s\n", id, record.TrailerRun, s.st.RunID), s.st.AttemptStop)
	if err != nil {
		return d, fmt.Errorf("compare the work tree with the stop of %s: %w", id, err)
	}
	if d.changed, err = s.repo.History().ChangedFiles(ctx, d.pre, s.st.AttemptStop); err != nil {
		return d, err
	}
	if d.edited, err = s.repo.History().ChangedFiles(ctx, s.st.AttemptStop, d.now); err != nil {
		return d, err
	}
	d.changed, d.edited = s.notOwn(d.changed), s.notOwn(d.edited)
	return d, nil
}

// notOwn drops planx's own files: the log is rewritten at every stop, and
// the plan is the person's to edit (its changes are drift, never discarded).
func (s stopRecords) notOwn(paths []string) []string {
	return slices.DeleteFunc(paths, func(p string) bool {
		return p == s.planRel || (s.logPath != "" && p == s.logPath)
	})
}

// discardAttempt puts back, as they were before the attempt, the paths the
// attempt changed that still hold exactly what it left; paths a person
// changed since the stop are kept. It says what it did and where the
// discarded bytes are kept. When the task runs again (rerun), it may write
// over the paths kept: the person's bytes are first kept under a ref.
func (s stopRecords) discardAttempt(ctx context.Context, d attemptDelta, rerun bool) error {
	var drop, kept []string
	for _, p := range d.changed {
		if slices.Contains(d.edited, p) {
			kept = append(kept, p)
		} else {
			drop = append(drop, p)
		}
	}
	if err := s.repo.RestorePaths(ctx, d.pre, drop); err != nil {
		return fmt.Errorf("discard the attempt: %w", err)
	}
	if len(drop) > 0 {
		s.out.Println("planx: discarded what the attempt left in %s (kept at %s)", listPaths(drop), d.ref)
	}
	switch {
	case len(kept) > 0 && rerun:
		ref, err := s.keep(ctx, d.now, "the work tree before a task runs again over paths changed since its stop")
		if err != nil {
			return err
		}
		s.out.Println("planx: kept %s: changed since the stop; the task runs again and may write over it: your bytes are at %s (`git checkout %s -- %s` gets them back)",
			listPaths(kept), ref, ref, kept[0])
	case len(kept) > 0:
		s.out.Println("planx: kept %s: changed since the stop", listPaths(kept))
	}
	s.st.AttemptStop, s.st.StopRef = "", ""
	return nil
}

// refuseOverEdits is resume's answer when re-executing a task would run over
// bytes a person wrote after the stop.
func (s stopRecords) refuseOverEdits(id planparse.TaskID, d attemptDelta) error {
	return fmt.Errorf("%w: %s stopped in the middle of executing (%s) and %s changed since; planx will not run it again over them.\n"+
		"  `planx resume --retry` runs it again keeping them (it discards only what the attempt left untouched, kept at %s),\n"+
		"  `planx skip` skips the task keeping them, `planx abort` ends the run",
		gitops.ErrRepoState, id, s.st.Status, listPaths(d.edited), d.ref)
}

func listPaths(ps []string) string {
	if len(ps) > 8 {
		return strings.Join(ps[:8], ", ") + fmt.Sprintf(" and %d more", len(ps)-8)
	}
	return strings.Join(ps, ", ")
}
