package executor

import (
	"context"
	"path/filepath"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/runstate"
	"github.com/planx-dev/planx/verify"
)

// watchFile is where the run keeps what planx noted before an agent's
// attempt (verify.WatchFile), next to the run state.
func (r *runner) watchFile() verify.WatchFile { return watchFileOf(r.repo, r.st.RunID) }

// watchFileOf is run runID's saved watch, for a command that has no runner
// (abort).
func watchFileOf(repo *gitops.Repo, runID string) verify.WatchFile {
	return verify.WatchFile{Repo: repo, RunID: runID, Path: filepath.Join(runstate.RunDir(repo, runID), "watch.json"), DepEnvs: gaterun.DepEnvs}
}

// resumeWatch takes what planx noted before the attempt whose work a
// resume judges (nil: nothing was noted, or it is gone).
func (tu *turn) resumeWatch(w *verify.SavedWatch) {
	if w == nil {
		return
	}
	tu.watch = w.Watch
	if !w.Judged {
		// Interrupted: the git directory is judged against its state then.
		tu.guard, tu.meta = w.Guard, w.Meta
		return
	}
	// Judged before the stop: .git was checked (and undone) then, and planx
	// has written its stop there since; the rest of the watch judges the
	// work again.
	tu.agentMark, tu.rejudged, tu.left = w.Mark, true, w.Left
}

// judged settles the saved watch once an agent's attempt is judged (err:
// what verify found). Work that passed needs it no more. Work that failed
// stays in the tree, and `planx resume` commits it after judging it again:
// a resume runs no agent, so it notes nothing before one; it takes what
// was noted before this attempt (the ignored files, the records' mark for
// the installed runners), or it would wave through a change git does not
// see that failed the attempt.
func (tu *turn) judged(ctx context.Context, err error) {
	f := tu.r.watchFile()
	if err == nil || tu.watch == nil {
		f.Drop()
		return
	}
	if !tu.rejudged {
		tu.left = tu.runners().Changed()
	}
	f.Save(verify.SavedWatch{Task: tu.t.ID, Guard: tu.guard, Meta: tu.meta, Watch: tu.watch, Mark: tu.agentMark, Replace: tu.replace, Judged: true, Left: tu.left})
}
