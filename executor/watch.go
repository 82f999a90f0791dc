package executor

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
)

// maxHiddenBaseline bounds the skip-worktree/assume-unchanged entries kept
// in the run state (a sparse checkout flags most of a repository); beyond
// it the check is off and the log says so.
const maxHiddenBaseline = 1000

// watch is what planx notes before an executor runs, to see afterwards
// whether it hid work from the judge or changed what the judge runs with.
type watch struct {
	Log     [sha256.Size]byte `json:"log"` // of the execution log's bytes (none: of no bytes)
	Ignored []string          `json:"ignored,omitempty"`
	// Rules are the ignore rules before the executor ran (agents only;
	// nil in a watch an older planx saved).
	Rules   *gitops.IgnoreRules `json:"rules,omitempty"`
	resumed bool                // loaded on resume: the log was rewritten since
}

// startWatch is taken before the executor runs.
func (tu *turn) startWatch(ctx context.Context) error {
	r, kind := tu.r, tu.kind
	w := &watch{}
	b, _ := os.ReadFile(relJoin(r.repo.Root, r.log.Path))
	w.Log = sha256.Sum256(b)
	if kind == "agent" {
		var err error
		if w.Ignored, err = r.repo.Index().IgnoredFiles(ctx); err != nil {
			return err
		}
		rules, err := r.repo.Index().IgnoreRules(ctx)
		if err != nil {
			return err
		}
		w.Rules = &rules
	}
	tu.watch = w
	tu.rejudged, tu.left = false, nil // a new attempt: its own work is judged
	return nil
}

// checkHiding fails an agent task (warns for others) that hid changes from
// git. (What it could change outside the repository, the sandbox keeps it
// from writing: docs/sandbox.md.) The turn has no watch
// when the task's work was done before this planx started (resume): then
// only what git itself records can be checked.
func (tu *turn) checkHiding(ctx context.Context) error {
	r, t, kind, w := tu.r, tu.t, tu.kind, tu.watch
	var bad []string
	if w != nil && !w.resumed {
		if now, _ := os.ReadFile(relJoin(r.repo.Root, r.log.Path)); sha256.Sum256(now) != w.Log {
			bad = append(bad, "modified the execution log "+r.log.Path)
		}
	}
	// Agents only: one ls-files of the whole index per task is not worth
	// it for the user's own steps.
	if kind == "agent" && !r.st.HiddenTooMany {
		hidden, err := r.repo.Index().HiddenEntries(ctx)
		if err != nil {
			return err
		}
		if fresh := minus(hidden, r.st.Hidden); len(fresh) > 0 {
			bad = append(bad, "hid files from git: "+strings.Join(fresh, ", "))
			if err := r.repo.Index().ClearHidden(ctx, fresh); err != nil {
				return err
			}
		}
	}
	if w != nil && kind == "agent" {
		hidden, err := tu.newIgnored(ctx)
		if err != nil {
			return err
		}
		bad = append(bad, hidden...)
	}
	if len(bad) == 0 {
		return nil
	}
	msg := "the task hid work from the judge: " + strings.Join(bad, "; ")
	if kind == "agent" {
		return &outcome.Failure{What: msg}
	}
	r.warnIssue(t, msg)
	return nil
}

// minus returns the entries of a not in b (both sorted or not).
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// buildOutput reports ignored paths that tools make while they build and
// test (caches, dependencies, compiled files): an agent that ran the
// tests leaves them, and they hide no source.
func buildOutput(p string) bool {
	dirs := []string{"node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
		".tox", ".venv", "venv", "target", "build", "dist", "out", ".cache", ".next", "coverage", ".gradle"}
	for _, seg := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if slices.Contains(dirs, seg) {
			return true
		}
	}
	switch path.Ext(p) {
	case ".pyc", ".pyo", ".o", ".a", ".so", ".class", ".log":
		return true
	}
	return false
}

// hiddenBaseline records, at the run's start, the index entries already
// flagged skip-worktree or assume-unchanged: those are the user's.
func (r *runner) hiddenBaseline(ctx context.Context) error {
	hidden, err := r.repo.Index().HiddenEntries(ctx)
	if err != nil {
		return fmt.Errorf("preflight: %w", err)
	}
	if len(hidden) > maxHiddenBaseline {
		r.st.HiddenTooMany = true
		return nil
	}
	r.st.Hidden = hidden
	return nil
}

// gitDirWritten fails a task that wrote into .git/ (config, hooks, info/)
// and undoes the writes from the snapshot taken before the task: a task
// must never leave a hook or a config behind for the user's next git
// command.
func (tu *turn) gitDirWritten(changed []string) error {
	what := "the task wrote to the git directory (" + strings.Join(changed, ", ") + "); .git/ is never a task's output"
	if tu.meta == nil {
		return &outcome.Failure{What: what + ": restore it by hand"}
	}
	return &outcome.Failure{What: what + undoGitDir(tu.r.repo, tu.meta)}
}

// undoGitDir restores the git directory's files from snap and says how it
// went, as a clause to append to what found the writes.
func undoGitDir(repo *gitops.Repo, snap *gitops.MetaSnapshot) string {
	restored, err := repo.Config().RestoreMeta(snap)
	switch {
	case err != nil:
		return fmt.Sprintf("; planx restored %s but not everything (%v): check .git/ by hand", strings.Join(restored, ", "), err)
	case len(restored) > 0:
		return "; planx undid it from its snapshot: " + strings.Join(restored, ", ")
	}
	return ""
}
