package checks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
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
// ends.

// defaultKeepIgnored is keep_ignored's default: what a run keeps of the
// ignored files it starts with, at most.
const defaultKeepIgnored = 32 << 20

// KeptDir is where the run in repo's work tree keeps its ignored files.
func KeptDir(repo *gitops.Repo) string { return filepath.Join(repo.PlanxDir(), "ignored") }

// KeepIgnored keeps the user's ignored files as the run starts (see
// above), up to limit bytes (keep_ignored: 0 for the default, below 0 for
// none).
func (c Tree) KeepIgnored(limit int64) {
	switch {
	case limit < 0:
		return
	case limit == 0:
		limit = defaultKeepIgnored
	}
	dst := KeptDir(c.Repo)
	_ = os.RemoveAll(dst) // an earlier run's, which a crash left
	left := verify.KeepIgnored(c.Repo.Root, dst, c.Ignored, gaterun.DepEnvs(c.Repo.Root, c.Ignored), limit)
	if len(left) > 0 {
		c.warn("", fmt.Sprintf("%d ignored file(s) are not kept (over keep_ignored: %d bytes, or unreadable), and a task that deletes them loses them: %s",
			len(left), limit, textsafe.List(left)))
	}
}

// CheckIgnored puts back the kept ignored files task t deleted, and warns
// about them and the other ignored entries it made disappear. It returns
// the ignored entries that still exist.
func (c Tree) CheckIgnored(t *planparse.Task) []string {
	if back, err := verify.PutBack(c.Repo.Root, KeptDir(c.Repo)); len(back) > 0 || err != nil {
		msg := fmt.Sprintf("the task deleted %d ignored file(s) that no commit holds; planx put them back from its copy: %s",
			len(back), textsafe.List(back))
		if err != nil {
			msg += fmt.Sprintf(" (not all: %v; the copies are in %s)", err, KeptDir(c.Repo))
		}
		c.warn(t.ID, msg)
	}
	gone := verify.Gone(c.Repo.Root, c.Ignored)
	if len(gone) == 0 {
		return c.Ignored
	}
	c.warn(t.ID, fmt.Sprintf("the task removed %d ignored path(s) that no commit holds (git clean -x? git stash -a? `git stash list` may have them): %s",
		len(gone), textsafe.List(gone)))
	return slices.DeleteFunc(c.Ignored, func(p string) bool { return slices.Contains(gone, p) })
}

// NoteIgnored returns the ignored entries that exist now, as the
// preflight's survey saw them when it is still current (non-nil); was
// when git cannot list them.
func NoteIgnored(ctx context.Context, repo *gitops.Repo, survey *gitops.Survey, was []string) []string {
	if survey != nil {
		return survey.Ignored
	}
	if ps, err := repo.Index().IgnoredEntries(ctx); err == nil {
		return ps
	}
	return was
}
