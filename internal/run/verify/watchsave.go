package verify

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/planparse"
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

// SavedWatch is what planx noted before an agent's attempt.
type SavedWatch struct {
	Task  planparse.TaskID `json:"task"`
	Guard Guard            `json:"guard"`
	Meta  *MetaSnapshot    `json:"meta"`
	Watch *Watch           `json:"watch"`
	// Mark is the records' mark the attempt runs under: installed test
	// runners changed since are the attempt's doing (Runners).
	Mark records.Mark `json:"mark,omitempty"`
	// Replace is the replace refs before the attempt (nil: not noted).
	Replace map[string]gitops.SHA `json:"replace"`
	// Judged: the attempt ended and was judged, and failed. Its work waits
	// in the tree, and a resume judges it against this watch again.
	Judged bool `json:"judged,omitempty"`
	// Left fingerprints, by content, the installed test runner files the
	// judged attempt changed, as it left them.
	Left map[string]string `json:"left,omitempty"`
}

// WatchFile is where the run keeps the watch of the agent attempt in
// flight (Path, next to its state).
type WatchFile struct {
	Repo  *gitops.Repo
	RunID string
	Path  string
}

// Save keeps what was noted before an attempt. A failure to save is not
// the task's: the attempt goes on, and a resume judges it with what git
// records, as before.
func (f WatchFile) Save(w SavedWatch) {
	b, err := json.Marshal(w)
	if err != nil {
		return
	}
	p := f.Path
	tmp := p + ".tmp"
	if os.MkdirAll(filepath.Dir(p), 0o755) == nil && os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, p)
	}
}

// Load returns what was noted before the interrupted attempt of t, nil
// when nothing was (or it is for another task, or unreadable).
func (f WatchFile) Load(t planparse.TaskID) *SavedWatch {
	b, err := os.ReadFile(f.Path)
	if err != nil {
		return nil
	}
	var w SavedWatch
	if json.Unmarshal(b, &w) != nil || w.Task != t || w.Meta == nil || w.Watch == nil {
		return nil
	}
	// The log is rewritten from the run state on resume: an edit the
	// executor made to it is gone, and planx's own rewrite is no edit.
	w.Watch.Resumed = true
	return &w
}

// Drop removes the saved watch once its attempt's work is committed or
// discarded.
func (f WatchFile) Drop() {
	_ = os.Remove(f.Path)
}

// CheckInterrupted judges what an agent attempt of t that planx did not see
// end (planx was killed while it ran) changed outside the work tree, against
// what planx noted before it: writes into the git directory's config, hooks
// and info/ are undone from the snapshot; changes to the user's git config,
// PATH, test runners' config or installed test runners are named (they are
// outside the repository: the user undoes them). It returns what it found,
// "" for nothing, and keeps the watch as that of a judged attempt: the
// resume that goes on judges the work in the tree against it (skip and
// abort drop it). A watch judged already is left as it is.
func (f WatchFile) CheckInterrupted(t planparse.TaskID) string {
	w := f.Load(t)
	if w == nil || w.Judged {
		return ""
	}
	var bad, left []string
	var meta []string
	for _, c := range w.Guard.Changed(GuardOf(f.Repo, f.RunID)) {
		// planx's own refs move on resume (the stop's snapshot); what runs
		// on the user's next git command is config, hooks and info/.
		if !strings.HasPrefix(c, ".git/refs/") {
			meta = append(meta, c)
		}
	}
	if len(meta) > 0 {
		bad = append(bad, "the interrupted attempt wrote to the git directory ("+strings.Join(meta, ", ")+")"+UndoGitDir(f.Repo, w.Meta))
	}
	if w.Replace != nil {
		if what, err := ReplaceWritten(context.Background(), f.Repo, w.Replace); err != nil || what != "" {
			bad = append(bad, "the interrupted attempt wrote to the git directory ("+cmp.Or(what, fmt.Sprint(err))+")")
		}
	}
	if w.Mark != 0 {
		runners := Runners{Root: f.Repo.Root, Ignored: w.Watch.Ignored, Mark: w.Mark}
		if left = runners.Since(); len(left) > 0 {
			ch := left[:min(len(left), 5)]
			bad = append(bad, "the interrupted attempt changed an installed test runner or library, which git does not track ("+strings.Join(ch, ", ")+"): reinstall it before you resume (npm ci, pip install --force-reinstall)")
		}
	}
	w.Judged, w.Left = true, LeftPrints(f.Repo.Root, left)
	f.Save(*w)
	return strings.Join(bad, "; ")
}
