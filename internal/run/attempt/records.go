package attempt

import (
	"context"
	"fmt"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
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

// Records are those snapshots, kept in the run state (AttemptPre,
// AttemptStop, StopRef, Stops), with what they need of the run.
type Records struct {
	Repo    *gitops.Repo
	State   *runstate.State
	Out     *progress.Progress
	PlanRel string
	LogPath string // "" while the run has no log
}

// Begin records the tree the attempt starts from. A resumed attempt
// (its work already in the tree) keeps the start of the one it resumes, so
// that a later --retry can still discard what that one left.
func (s Records) Begin(ctx context.Context, t *planparse.Task, resumed bool, expect gitops.SHA, dirty bool) error {
	s.State.AttemptSpace = "" // the executor's runner says where the new one runs
	if resumed && s.State.AttemptPre != "" {
		s.State.AttemptStop, s.State.StopRef = "", ""
		return nil
	}
	s.State.AttemptPre, s.State.AttemptStop, s.State.StopRef = expect, "", ""
	if !dirty {
		return nil // the tree is planx's last commit: nothing to write
	}
	pre, err := s.Repo.Commits().Snapshot(ctx, fmt.Sprintf("planx: work tree before %s of run %s\n", t.ID, s.State.RunID), expect)
	if err != nil {
		return fmt.Errorf("record the tree before %s: %w", t.ID, err)
	}
	s.State.AttemptPre = pre
	return nil
}

// RecordStop records the tree at the stop and keeps it under a ref. It is
// called when a task stops, and by resume/skip when a crash stopped it
// without a record. Without a record of the attempt's start it does nothing.
func (s Records) RecordStop(ctx context.Context, id planparse.TaskID, why string) error {
	if s.State.AttemptPre == "" {
		return nil
	}
	msg := fmt.Sprintf("planx: work tree at the stop of %s (%s)\n\n%s: %s\n", id, why, record.TrailerRun, s.State.RunID)
	stop, err := s.Repo.Commits().Snapshot(ctx, msg, s.State.AttemptPre)
	if err != nil {
		return fmt.Errorf("record the tree at the stop of %s: %w", id, err)
	}
	s.State.Stops++
	ref := record.RunRef(s.State.RunID, fmt.Sprintf("stops/%d-%s", s.State.Stops, id))
	if err := s.Repo.Refs().Update(ctx, ref, stop, "", "planx: work tree at a stop"); err != nil {
		return fmt.Errorf("record the tree at the stop of %s: %w", id, err)
	}
	s.State.AttemptStop, s.State.StopRef = stop, ref
	return nil
}

// Delta is what the stopped attempt changed and what a person changed
// since it stopped.
type Delta struct {
	pre     gitops.SHA
	now     gitops.SHA // the tree now, a child of the stop
	ref     string     // keeps the tree at the stop
	Changed []string   // by the attempt
	Edited  []string   // since the stop
}

// Compare compares the attempt's start, its stop and the tree now. A stop a
// crash left unrecorded is recorded now: planx cannot tell a person's later
// edits from the attempt's then, and says so.
func (s Records) Compare(ctx context.Context, id planparse.TaskID, expect gitops.SHA) (Delta, error) {
	if s.State.AttemptPre == "" {
		s.State.AttemptPre = expect
	}
	if s.State.AttemptStop == "" {
		if err := s.RecordStop(ctx, id, "found after a crash"); err != nil {
			return Delta{}, err
		}
		s.Out.Println("planx: %s stopped without a record (crash); the work tree as found now is kept at %s", id, s.State.StopRef)
	}
	d := Delta{pre: s.State.AttemptPre, ref: s.State.StopRef}
	var err error
	d.now, err = s.Repo.Commits().Snapshot(ctx, fmt.Sprintf("planx: work tree at a recovery of %s\n\n%s: %s\n", id, record.TrailerRun, s.State.RunID), s.State.AttemptStop)
	if err != nil {
		return d, fmt.Errorf("compare the work tree with the stop of %s: %w", id, err)
	}
	if d.Changed, err = s.Repo.History().ChangedFiles(ctx, d.pre, s.State.AttemptStop); err != nil {
		return d, err
	}
	if d.Edited, err = s.Repo.History().ChangedFiles(ctx, s.State.AttemptStop, d.now); err != nil {
		return d, err
	}
	d.Changed, d.Edited = s.notOwn(d.Changed), s.notOwn(d.Edited)
	return d, nil
}

// notOwn drops planx's own files: the log is rewritten at every stop, and
// the plan is the person's to edit (its changes are drift, never discarded).
func (s Records) notOwn(paths []string) []string {
	return slices.DeleteFunc(paths, func(p string) bool {
		return p == s.PlanRel || (s.LogPath != "" && p == s.LogPath)
	})
}

// Discard puts back, as they were before the attempt, the paths the
// attempt changed that still hold exactly what it left; paths a person
// changed since the stop are kept. It says what it did and where the
// discarded bytes are kept. When the task runs again (rerun), it may write
// over any path a person changed since the stop: their bytes are first
// kept under a ref.
func (s Records) Discard(ctx context.Context, d Delta, rerun bool) error {
	var drop, kept []string
	for _, p := range d.Changed {
		if slices.Contains(d.Edited, p) {
			kept = append(kept, p)
		} else {
			drop = append(drop, p)
		}
	}
	if err := RestorePaths(ctx, s.Repo, d.pre, drop); err != nil {
		return fmt.Errorf("discard the attempt: %w", err)
	}
	if len(drop) > 0 {
		s.Out.Println("planx: discarded what the attempt left in %s (kept at %s)", textsafe.List(drop), d.ref)
	}
	switch {
	case len(d.Edited) > 0 && rerun:
		// Every path a person changed since the stop, not only those the
		// attempt changed too: a task that failed in a wave's own work tree
		// changed nothing here, and runs again over the person's fix.
		ref, err := s.Keep(ctx, d.now, "the work tree before a task runs again over paths changed since its stop")
		if err != nil {
			return err
		}
		s.Out.Println("planx: kept %s: changed since the stop; the task runs again and may write over it: your bytes are at %s (`git checkout %s -- %s` gets them back)",
			textsafe.List(d.Edited), ref, ref, d.Edited[0])
	case len(kept) > 0:
		s.Out.Println("planx: kept %s: changed since the stop", textsafe.List(kept))
	}
	s.State.AttemptStop, s.State.StopRef = "", ""
	return nil
}

// KeepForRerun keeps, before a task runs again in a work tree its
// stopped attempt never ran in (a wave task that failed in a work tree
// of its own), every path that differs there from expect, planx's last
// commit: none of it is the task's, so all of it is a person's (a fix
// made before or after the stop), kept under a ref and named.
func (s Records) KeepForRerun(ctx context.Context, d Delta, expect gitops.SHA) error {
	paths, err := s.Repo.History().ChangedFiles(ctx, expect, d.now)
	if err != nil {
		return fmt.Errorf("compare the work tree with %s: %w", expect.Short(), err)
	}
	if paths = s.notOwn(paths); len(paths) == 0 {
		return nil
	}
	ref, err := s.Keep(ctx, d.now, "the work tree before a task runs again in it over a person's changes")
	if err != nil {
		return err
	}
	s.Out.Println("planx: kept %s: changed in your work tree; the task runs again here and may write over it: your bytes are at %s (`git checkout %s -- %s` gets them back)",
		textsafe.List(paths), ref, ref, paths[0])
	return nil
}

// RefuseOverEdits is resume's answer when re-executing a task would run over
// bytes a person wrote after the stop.
func (s Records) RefuseOverEdits(id planparse.TaskID, d Delta) error {
	return fmt.Errorf("%w: %s stopped in the middle of executing (%s) and %s changed since; planx will not run it again over them.\n"+
		"  `planx resume --retry` runs it again keeping them (it discards only what the attempt left untouched, kept at %s),\n"+
		"  `planx skip` skips the task keeping them, `planx abort` ends the run",
		gitops.ErrRepoState, id, s.State.Status, textsafe.List(d.Edited), d.ref)
}

// PersonEdits are the paths of the tree now (d's) that a person changed and
// the stopped attempt d did not leave as they are: edited since the stop,
// or left in the tree before the attempt started (an edit an earlier task
// of the run kept out of its commit). Planx's own files aside. staged are
// those of them the person staged (the attempt's own paths, which planx
// stages for the gates, are not counted).
func (s Records) PersonEdits(ctx context.Context, d Delta, expect gitops.SHA) (edited, staged []string, err error) {
	all, err := s.Repo.History().ChangedFiles(ctx, expect, d.now)
	if err != nil {
		return nil, nil, fmt.Errorf("compare the work tree with %s: %w", expect.Short(), err)
	}
	for _, p := range s.notOwn(all) {
		if !slices.Contains(d.Changed, p) || slices.Contains(d.Edited, p) {
			edited = append(edited, p)
		}
	}
	staged, err = s.stagedOf(ctx, edited, d.Changed)
	return edited, staged, err
}

// EditsNow are a person's edits in the work tree when no attempt is
// stopped (a stop between tasks, a skip): every path that differs from
// expect, planx's last commit, planx's own files aside; staged those of
// them staged, less planx's (paths it staged itself); at a commit of the
// tree holding them (none when there is none).
func (s Records) EditsNow(ctx context.Context, expect gitops.SHA, planx ...string) (edited, staged []string, at gitops.SHA, err error) {
	changes, err := s.Repo.Status(ctx)
	if err != nil {
		return nil, nil, "", err
	}
	for _, c := range changes {
		edited = append(edited, c.Path)
	}
	if edited = s.notOwn(edited); len(edited) == 0 {
		return nil, nil, "", nil
	}
	if staged, err = s.stagedOf(ctx, edited, planx); err != nil {
		return nil, nil, "", err
	}
	at, err = s.Repo.Commits().Snapshot(ctx, fmt.Sprintf("planx: work tree at a recovery of run %s\n\n%s: %s\n", s.State.RunID, record.TrailerRun, s.State.RunID), expect)
	if err != nil {
		return nil, nil, "", fmt.Errorf("record the work tree at a recovery: %w", err)
	}
	return edited, staged, at, nil
}

// stagedOf are the paths of among that are staged in the index, less
// those planx staged itself (planx's).
func (s Records) stagedOf(ctx context.Context, among, planx []string) ([]string, error) {
	if len(among) == 0 {
		return nil, nil
	}
	changes, err := s.Repo.Status(ctx)
	if err != nil {
		return nil, err
	}
	var staged []string
	for _, c := range changes {
		if c.Index != '.' && c.Index != '?' && slices.Contains(among, c.Path) && !slices.Contains(planx, c.Path) {
			staged = append(staged, c.Path)
		}
	}
	return staged, nil
}

// Now is the commit of the work tree Compare recorded.
func (d Delta) Now() gitops.SHA { return d.now }

// AdoptApart makes a person's edits that a resumed attempt leaves apart
// (not the task's) part of the tree the attempt started from, as they are
// in at (the tree they were found in): should it stop again, a later
// recovery takes them for the person's, never for the attempt's work, and
// --retry never puts them back as the attempt's.
func (s Records) AdoptApart(ctx context.Context, apart []string, at gitops.SHA) error {
	if len(apart) == 0 || at == "" || s.State.AttemptPre == "" {
		return nil
	}
	pre, err := s.Repo.Objects().TreeFromBase(ctx, s.State.AttemptPre, at, apart,
		fmt.Sprintf("planx: work tree before %s of run %s, with a person's edits apart\n", s.State.Current, s.State.RunID))
	if err != nil {
		return fmt.Errorf("record a person's edits apart from the attempt: %w", err)
	}
	s.State.AttemptPre = pre
	return nil
}
