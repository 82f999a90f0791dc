package executor

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
	"github.com/planx-dev/planx/verify"
)

// An agent that kills planx while it runs (`pkill -9 planx`) would, without
// this, have its work judged on `planx resume` with nothing to compare the
// git directory, the user's git config, PATH or the test runners' config
// against: the planted hook, the fake `sh` on PATH would pass unseen. So
// what planx notes before an agent runs is saved next to the run state, and
// a resume of that attempt judges the work against it. The same holds for
// an attempt planx judged and failed: its work waits in the tree, and a
// resume, which runs no agent and so notes nothing, judges it against the
// notes of that attempt until the work is committed or discarded. (An executor that
// knows this file can still rewrite it: it lives where the user's rights
// reach, as all of .git does; it raises the cost from one command to
// knowing planx's internals.)

// savedWatch is what planx noted before an agent's attempt.
type savedWatch struct {
	Task  planparse.TaskID     `json:"task"`
	Guard gitops.Guard         `json:"guard"`
	Meta  *gitops.MetaSnapshot `json:"meta"`
	Watch *verify.Watch        `json:"watch"`
	// Mark is the records' mark the attempt runs under: installed test
	// runners changed since are the attempt's doing (verify.Runners).
	Mark gitops.RecordsMark `json:"mark,omitempty"`
	// Replace is the replace refs before the attempt (nil: not noted).
	Replace map[string]gitops.SHA `json:"replace"`
	// Judged: the attempt ended and was judged, and failed. Its work waits
	// in the tree, and a resume judges it against this watch again.
	Judged bool `json:"judged,omitempty"`
	// Left fingerprints, by content, the installed test runner files the
	// judged attempt changed, as it left them.
	Left map[string]string `json:"left,omitempty"`
}

// watchFile is where the run keeps the watch of the agent attempt in
// flight, next to its state.
type watchFile struct {
	repo  *gitops.Repo
	runID string
	path  string
	gates []gates.Gate // the run's, for the installed runners they use
}

func (r *runner) watchFile() watchFile {
	return watchFile{repo: r.repo, runID: r.st.RunID, path: filepath.Join(runstate.RunDir(r.repo, r.st.RunID), "watch.json"), gates: r.Gates}
}

// save keeps what was noted before an attempt. A failure to save is not
// the task's: the attempt goes on, and a resume judges it with what git
// records, as before.
func (f watchFile) save(w savedWatch) {
	b, err := json.Marshal(w)
	if err != nil {
		return
	}
	p := f.path
	tmp := p + ".tmp"
	if os.MkdirAll(filepath.Dir(p), 0o755) == nil && os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, p)
	}
}

// load returns what was noted before the interrupted attempt of t, nil
// when nothing was (or it is for another task, or unreadable).
func (f watchFile) load(t planparse.TaskID) *savedWatch {
	b, err := os.ReadFile(f.path)
	if err != nil {
		return nil
	}
	var w savedWatch
	if json.Unmarshal(b, &w) != nil || w.Task != t || w.Meta == nil || w.Watch == nil {
		return nil
	}
	// The log is rewritten from the run state on resume: an edit the
	// executor made to it is gone, and planx's own rewrite is no edit.
	w.Watch.Resumed = true
	return &w
}

// drop removes the saved watch once its attempt's work is committed or
// discarded.
func (f watchFile) drop() {
	_ = os.Remove(f.path)
}

// resumeWatch takes what planx noted before the attempt whose work a
// resume judges (nil: nothing was noted, or it is gone).
func (tu *turn) resumeWatch(w *savedWatch) {
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
		f.drop()
		return
	}
	if !tu.rejudged {
		tu.left = tu.runners().Changed()
	}
	f.save(savedWatch{Task: tu.t.ID, Guard: tu.guard, Meta: tu.meta, Watch: tu.watch, Mark: tu.agentMark, Replace: tu.replace, Judged: true, Left: tu.left})
}

// checkInterrupted judges what an agent attempt of t that planx did not see
// end (planx was killed while it ran) changed outside the work tree, against
// what planx noted before it: writes into the git directory's config, hooks
// and info/ are undone from the snapshot; changes to the user's git config,
// PATH, test runners' config or installed test runners are named (they are
// outside the repository: the user undoes them). It returns what it found,
// "" for nothing, and keeps the watch as that of a judged attempt: the
// resume that goes on judges the work in the tree against it (skip and
// abort drop it). A watch judged already is left as it is.
func (f watchFile) checkInterrupted(t planparse.TaskID) string {
	w := f.load(t)
	if w == nil || w.Judged {
		return ""
	}
	var bad, left []string
	var meta []string
	for _, c := range w.Guard.Changed(f.repo.Config().Guard(f.runID)) {
		// planx's own refs move on resume (the stop's snapshot); what runs
		// on the user's next git command is config, hooks and info/.
		if !strings.HasPrefix(c, ".git/refs/") {
			meta = append(meta, c)
		}
	}
	if len(meta) > 0 {
		bad = append(bad, "the interrupted attempt wrote to the git directory ("+strings.Join(meta, ", ")+")"+verify.UndoGitDir(f.repo, w.Meta))
	}
	if w.Replace != nil {
		if what, err := verify.ReplaceWritten(context.Background(), f.repo, w.Replace); err != nil || what != "" {
			bad = append(bad, "the interrupted attempt wrote to the git directory ("+cmp.Or(what, fmt.Sprint(err))+")")
		}
	}
	if w.Mark != 0 {
		runners := verify.Runners{Root: f.repo.Root, Envs: gaterun.DepEnvs(f.repo.Root, w.Watch.Ignored), Mark: w.Mark}
		if left = runners.Since(); len(left) > 0 {
			ch := left[:min(len(left), 5)]
			bad = append(bad, "the interrupted attempt changed an installed test runner or library, which git does not track ("+strings.Join(ch, ", ")+"): reinstall it before you resume (npm ci, pip install --force-reinstall)")
		}
	}
	w.Judged, w.Left = true, verify.LeftPrints(f.repo.Root, left)
	f.save(*w)
	return strings.Join(bad, "; ")
}
