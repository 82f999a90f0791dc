package aside

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Ignored files are in no commit, not even the rollback commit: a task that
// deletes them (git clean -fdx) or writes over them (echo oops >
// local.env) would take bytes nothing else holds. The run copies the
// user's own (local.env, data/: not build outputs, caches or installed
// dependencies, which a build makes again) into the git directory when it
// starts, up to keep_ignored: bytes, and after each task's executor and
// gates puts back any it deleted or changed, saying so. What the task left
// in their place is kept under the run's directory (Dir): a step may
// regenerate ignored output on purpose. The copies are plain files, never
// objects: a secret in local.env must not reach a commit, a ref or a push.
// They go when the run ends (End), once every file is back; the
// files over the limit a task deleted or changed are named then.

// defaultKeepIgnored is keep_ignored's default: what a run keeps of the
// ignored files it starts with, at most.
const defaultKeepIgnored = 32 << 20

// KeptDir is where the run in repo's work tree keeps its ignored files.
func KeptDir(repo *gitops.Repo) string { return filepath.Join(repo.PlanxDir(), "ignored") }

// leftFile lists the ignored files the run did not keep (Left).
func leftFile(repo *gitops.Repo) string { return filepath.Join(repo.PlanxDir(), "ignored-left.json") }

// Dir is where the run keeps what task (or "end", what the run's
// end found) left in place of the user's ignored files. It is the run's
// output, kept after the run like its log, until `planx prune`.
func Dir(repo *gitops.Repo, runID, task string) string {
	return filepath.Join(runstate.RunDir(repo, runID), "ignored", task)
}

// Keep keeps the user's ignored files (the entries ignored) as the run
// in repo's work tree starts (see above), up to limit bytes
// (keep_ignored: 0 for the default, below 0 for none); desk hears which
// it did not keep.
func Keep(repo *gitops.Repo, ignored []string, limit int64, desk hall.Desk) {
	dst := KeptDir(repo)
	_ = os.RemoveAll(dst) // an earlier run's, which a crash left
	switch {
	case limit < 0:
		_ = os.Remove(leftFile(repo))
		return
	case limit == 0:
		limit = defaultKeepIgnored
	}
	left := Copy(repo.Root, dst, ignored, gaterun.DepEnvs(repo.Root, ignored), limit)
	if len(left) == 0 {
		_ = os.Remove(leftFile(repo))
		return
	}
	if b, err := json.Marshal(left); err == nil {
		_ = os.WriteFile(leftFile(repo), b, 0o600) // torn by a crash: nothing is named at the end
	}
	paths := make([]string, len(left))
	for i, l := range left {
		paths[i] = l.Path
	}
	hall.Warn(desk, "", fmt.Sprintf("%d ignored file(s) are not kept (over keep_ignored: %d bytes, or unreadable), and a task that deletes them loses them: %s",
		len(left), limit, textsafe.List(paths)))
}

// Check puts back the kept ignored files task t of run runID deleted or
// changed, and warns desk about them and the other ignored entries (of
// ignored, those the run knew) it made disappear. It returns the ignored
// entries that still exist.
func Check(repo *gitops.Repo, runID string, ignored []string, desk hall.Desk, t *planparse.Task) []string {
	msgs, _ := putBack(repo, Dir(repo, runID, string(t.ID)), "the task")
	for _, msg := range msgs {
		hall.Warn(desk, t.ID, msg)
	}
	gone := Gone(repo.Root, ignored)
	if len(gone) == 0 {
		return ignored
	}
	hall.Warn(desk, t.ID, fmt.Sprintf("the task removed %d ignored path(s) that no commit holds (git clean -x? git stash -a? `git stash list` may have them): %s",
		len(gone), textsafe.List(gone)))
	return slices.DeleteFunc(ignored, func(p string) bool { return slices.Contains(gone, p) })
}

// putBack puts back the kept files the work tree lacks or has changed,
// moving what stood in their place under aside, and says what it did
// (who did it: "the task", or "the run" at its end); ok is false when a
// file could not be put back.
func putBack(repo *gitops.Repo, aside, who string) (msgs []string, ok bool) {
	back, err := gaterun.PutBack(repo.Root, KeptDir(repo), aside)
	msgs = gaterun.DescribeBack(back, who, aside, false)
	if err != nil {
		msgs = append(msgs, fmt.Sprintf("planx could not put back every ignored file (%v); its copies stay in %s", err, KeptDir(repo)))
	}
	return msgs, err == nil
}

// End settles the run's ignored files as it ends (completed,
// skipped to its end or aborted, also after a crash mid-task): it puts
// back what is missing or changed, as after a task (what stood there
// goes under Dir(runID, task)), names the files over the limit that
// are gone or changed, and drops the copies once every file is back. It
// returns what to say.
func End(repo *gitops.Repo, runID, task string) []string {
	if _, err := os.Stat(KeptDir(repo)); errors.Is(err, fs.ErrNotExist) {
		return lostMessage(repo)
	}
	msgs, ok := putBack(repo, Dir(repo, runID, task), "the run")
	msgs = append(msgs, lostMessage(repo)...)
	if ok {
		_ = os.RemoveAll(KeptDir(repo))
		_ = os.Remove(leftFile(repo))
	}
	return msgs
}

// lostMessage names the ignored files the run did not keep that are now
// gone or changed.
func lostMessage(repo *gitops.Repo) []string {
	b, err := os.ReadFile(leftFile(repo))
	if err != nil {
		return nil
	}
	var left []Left
	if json.Unmarshal(b, &left) != nil {
		return nil
	}
	lost := Lost(repo.Root, left)
	if len(lost) == 0 {
		return nil
	}
	named := make([]string, len(lost))
	for i, l := range lost {
		named[i] = fmt.Sprintf("%s (%d bytes)", l.Path, l.Size)
	}
	return []string{fmt.Sprintf("the run deleted or changed %d ignored file(s) that planx had not kept (over keep_ignored), and they cannot be put back: not kept: %s",
		len(lost), textsafe.List(named))}
}

// Note returns the ignored entries that exist now, as the
// preflight's survey saw them when it is still current (non-nil); was
// when git cannot list them.
func Note(ctx context.Context, repo *gitops.Repo, survey *gitops.Survey, was []string) []string {
	if survey != nil {
		return survey.Ignored
	}
	if ps, err := repo.Index().IgnoredEntries(ctx); err == nil {
		return ps
	}
	return was
}
