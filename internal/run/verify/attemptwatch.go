package verify

import (
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// WatchFileOf is where run runID keeps what planx noted before an
// agent's attempt (a WatchFile), next to the run state; a command with no
// run of its own (abort) reads it too.
func WatchFileOf(repo *gitops.Repo, runID string) WatchFile {
	return WatchFile{Repo: repo, RunID: runID, Path: filepath.Join(runstate.RunDir(repo, runID), "watch.json")}
}

// Started saves, in c's watch file, what planx noted before an agent's
// attempt at task id that runs under the records' mark.
func (a *Attempt) Started(c Tree, id planparse.TaskID, mark records.Mark) {
	WatchFileOf(c.Repo, c.RunID).Save(SavedWatch{Task: id, Guard: a.Guard, Meta: a.Meta, Watch: a.Watch, Mark: mark, Replace: a.Replace})
}

// Resume takes what planx noted before the attempt whose work a resume
// judges (nil: nothing was noted, or it is gone).
func (a *Attempt) Resume(w *SavedWatch) {
	if w == nil {
		return
	}
	a.Watch = w.Watch
	if !w.Judged {
		// Interrupted: the git directory is judged against its state then.
		a.Guard, a.Meta = w.Guard, w.Meta
		return
	}
	// Judged before the stop: .git was checked (and undone) then, and planx
	// has written its stop there since; the rest of the watch judges the
	// work again.
	a.Mark, a.Rejudged, a.Left = w.Mark, true, w.Left
}

// Judged settles the saved watch once an agent's attempt at task id is
// judged (err: what Verify found). Work that passed needs it no more. Work
// that failed stays in the tree, and `planx resume` commits it after
// judging it again: a resume runs no agent, so it notes nothing before
// one; it takes what was noted before this attempt (the ignored files, the
// records' mark for the installed runners), or it would wave through a
// change git does not see that failed the attempt.
func (a *Attempt) Judged(c Tree, id planparse.TaskID, err error) {
	f := WatchFileOf(c.Repo, c.RunID)
	if err == nil || a.Watch == nil {
		f.Drop()
		return
	}
	if !a.Rejudged {
		a.Left = a.Runners(c).Changed()
	}
	f.Save(SavedWatch{Task: id, Guard: a.Guard, Meta: a.Meta, Watch: a.Watch, Mark: a.Mark, Replace: a.Replace, Judged: true, Left: a.Left})
}
