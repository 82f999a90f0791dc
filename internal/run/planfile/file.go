package planfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/planparse"
)

// File is the plan file on disk (and in the repository's history) and
// the bytes planx last read or wrote there: every write of the plan (a
// Tick, taking one back) goes through it, so Src always says what planx
// put in the file.
type File struct {
	Abs    string
	Rel    string // repo-relative, slash-separated
	Src    []byte // the plan's bytes as planx last saw or wrote them
	Format planparse.Format
	// pinChecked is the plan's last text edited found to hold the run's
	// tasks unchanged (ticks aside).
	pinChecked []byte
	// held: the plan on disk holds an edit that is not the current
	// task's, kept out of its commit (held.go).
	held bool
}

// write replaces the plan file's bytes, keeping its mode.
func (pf *File) write(b []byte) error {
	if err := fsutil.WriteAtomic(pf.Abs, b, 0o644); err != nil {
		return err
	}
	pf.Src = b
	return nil
}

// Tick sets the task's checkbox (or tasks.json status) in the plan file,
// changing nothing else; ticked is false when there was nothing to set
// (already done, or the task is gone from a plan edited during the run).
func (pf *File) Tick(t *planparse.Task) (ticked bool, err error) {
	cur, err := os.ReadFile(pf.Abs)
	if err != nil {
		return false, fmt.Errorf("tick %s: %w", t.ID, err)
	}
	target := t
	if string(cur) != string(pf.Src) {
		// The plan changed under us (a task edited it): positions are stale.
		p, err := planparse.Parse(pf.Abs, cur, planparse.Options{Format: pf.Format})
		if err != nil {
			return false, fmt.Errorf("tick %s: %w", t.ID, err)
		}
		if target = p.Task(t.ID); target == nil {
			return false, nil
		}
	}
	src, ok := planparse.Tick(cur, target)
	if !ok {
		pf.Src = cur
		return false, nil
	}
	if err := pf.writeTick(cur, src); err != nil {
		return false, err
	}
	if bytes.Equal(cur, pf.pinChecked) {
		// A tick changes no task's text: the ticked plan holds the run's
		// tasks as cur did, and the next task's pin check need not parse it
		// again (~0.5 ms a task).
		pf.pinChecked = src
	}
	return true, nil
}

// writeTick writes the ticked plan. A checkbox tick changes one byte ("[ ]"
// to "[x]"): that byte is written in place, which a crash cannot tear and
// which spares creating a temporary file per task; anything else (a
// tasks.json status set to "done") is written atomically through a
// temporary file.
func (pf *File) writeTick(cur, ticked []byte) error {
	at := -1
	if len(cur) == len(ticked) {
		for i := range cur {
			if cur[i] != ticked[i] {
				if at >= 0 {
					at = -1
					break
				}
				at = i
			}
		}
	}
	if at < 0 {
		return pf.write(ticked)
	}
	f, err := os.OpenFile(pf.Abs, os.O_WRONLY, 0)
	if err != nil {
		return pf.write(ticked)
	}
	_, werr := f.WriteAt(ticked[at:at+1], int64(at))
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("tick: %w", err)
	}
	pf.Src = ticked
	return nil
}

// Untick takes back the tick planx wrote for a commit that did not happen,
// and only that: when the plan no longer holds exactly the bytes planx
// wrote (a person edited it meanwhile), it is left alone and untick reports
// the stale tick kept, never overwritten with older text.
func (pf *File) Untick(before []byte) (kept bool) {
	if string(pf.Src) == string(before) {
		return false // planx changed nothing
	}
	cur, err := os.ReadFile(pf.Abs)
	if err != nil {
		return false
	}
	if string(cur) != string(pf.Src) {
		return true
	}
	_ = pf.write(before)
	return false
}

// OnlyTicked reports whether the plan file still has the bytes planx
// knows, or those with t's own checkbox ticked, so that a task that edits
// the plan beyond that is seen as a change (of a protected file).
func (pf *File) OnlyTicked(t *planparse.Task) bool {
	b, err := os.ReadFile(pf.Abs)
	if err != nil {
		return false
	}
	ticked, _ := planparse.Tick(pf.Src, t)
	return string(b) == string(pf.Src) || string(b) == string(ticked)
}

// BodyAt is the text of task id in the plan as commit sha has it, or ""
// when that commit has no such plan or task.
func (pf *File) BodyAt(ctx context.Context, repo *gitops.Repo, sha gitops.SHA, id planparse.TaskID) string {
	src, err := repo.History().ShowFile(ctx, sha, pf.Rel)
	if err != nil {
		return ""
	}
	p, err := planparse.Parse(pf.Abs, src, planparse.Options{Format: pf.Format})
	if err != nil || p.Task(id) == nil {
		return ""
	}
	return p.Task(id).Body
}

// New is the plan file at abs (rel in the repository) as plan was read
// from it.
func New(abs, rel string, plan *planparse.Plan) *File {
	return &File{Abs: abs, Rel: rel, Src: plan.Source, Format: plan.Format, pinChecked: plan.Source}
}
