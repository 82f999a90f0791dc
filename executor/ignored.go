package executor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/verify"
)

// Ignored files are in no commit, not even the rollback commit: a task that
// deletes them (git clean -fdx) or stashes them (git stash -a) would take
// bytes nothing else holds. The run copies the user's own (local.env,
// data/: not build outputs, caches or installed dependencies, which a build
// makes again) into the git directory when it starts, up to keep_ignored:
// bytes, and after each task's executor and gates puts back any it
// deleted, saying so; it names the other ignored entries a task made
// disappear. The copies are plain files, never objects: a secret in
// local.env must not reach a commit, a ref or a push. They go when the run
// ends (endRun).

// defaultKeepIgnored is keep_ignored's default: what a run keeps of the
// ignored files it starts with, at most.
const defaultKeepIgnored = 32 << 20

// keptDir is where the run in repo's work tree keeps its ignored files.
func keptDir(repo *gitops.Repo) string { return filepath.Join(repo.PlanxDir(), "ignored") }

// keepIgnored keeps the user's ignored files as the run starts (see above).
func (r *runner) keepIgnored() {
	limit := r.Config.KeepIgnored
	switch {
	case limit < 0:
		return
	case limit == 0:
		limit = defaultKeepIgnored
	}
	dst := keptDir(r.repo)
	_ = os.RemoveAll(dst) // an earlier run's, which a crash left
	left := verify.KeepIgnored(r.repo.Root, dst, r.ignored, gaterun.DepEnvs(r.repo.Root, r.ignored), limit)
	if len(left) > 0 {
		msg := fmt.Sprintf("%d ignored file(s) are not kept (over keep_ignored: %d bytes, or unreadable), and a task that deletes them loses them: %s",
			len(left), limit, textsafe.List(left))
		r.log.Issues = append(r.log.Issues, r.issue("", msg))
		r.out.Warn("", msg)
	}
}

// noteIgnored records the ignored entries that exist now, as the
// preflight's survey saw them when it is still current.
func (r *runner) noteIgnored(ctx context.Context) {
	if r.survey != nil {
		r.ignored = r.survey.Ignored
		return
	}
	ps, err := r.repo.Index().IgnoredEntries(ctx)
	if err == nil {
		r.ignored = ps
	}
}

// checkIgnored puts back the kept ignored files the task deleted, and
// warns about them and the other ignored entries it made disappear.
func (r *runner) checkIgnored(t *planparse.Task) {
	if back, err := verify.PutBack(r.repo.Root, keptDir(r.repo)); len(back) > 0 || err != nil {
		msg := fmt.Sprintf("the task deleted %d ignored file(s) that no commit holds; planx put them back from its copy: %s",
			len(back), textsafe.List(back))
		if err != nil {
			msg += fmt.Sprintf(" (not all: %v; the copies are in %s)", err, keptDir(r.repo))
		}
		r.warnIssue(t, msg)
	}
	gone := verify.Gone(r.repo.Root, r.ignored)
	if len(gone) == 0 {
		return
	}
	r.ignored = slices.DeleteFunc(r.ignored, func(p string) bool { return slices.Contains(gone, p) })
	msg := fmt.Sprintf("the task removed %d ignored path(s) that no commit holds (git clean -x? git stash -a? `git stash list` may have them): %s",
		len(gone), textsafe.List(gone))
	r.log.Issues = append(r.log.Issues, r.issue(t.ID, msg))
	r.out.Warn(t.ID, msg)
}
