package executor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// cleanTree checks the staged tree out into a temporary linked worktree,
// for gates that must see exactly what is about to be committed: no
// ignored file, no untracked leftover, no file git is told not to look at.
// It returns the directory and how to remove it.
func (r *runner) cleanTree(ctx context.Context, t *planparse.Task) (string, func(), error) {
	sha, err := r.repo.Index().StagedCommit(ctx, r.expect)
	if err != nil {
		return "", nil, fmt.Errorf("gates of %s in a clean worktree: %w", t.ID, err)
	}
	return r.checkout(ctx, t, sha, "gates")
}

// checkout checks commit sha out into a temporary linked worktree under
// the run's directory in .git/ (git never scans it, so the checkout cannot
// show up as a change of the task, wherever TMPDIR is). It returns the
// directory and how to remove it.
func (r *runner) checkout(ctx context.Context, t *planparse.Task, sha gitops.SHA, label string) (string, func(), error) {
	if err := os.MkdirAll(runDir(r.repo, r.st.RunID), 0o755); err != nil {
		return "", nil, fmt.Errorf("%s of %s in a clean worktree: %w", label, t.ID, err)
	}
	tmp, err := os.MkdirTemp(runDir(r.repo, r.st.RunID), string(t.ID)+"-"+label+"-")
	if err != nil {
		return "", nil, fmt.Errorf("%s of %s in a clean worktree: %w", label, t.ID, err)
	}
	wt := filepath.Join(tmp, "tree")
	if err := r.repo.Worktrees().Add(ctx, wt, sha); err != nil {
		_ = os.RemoveAll(tmp)
		return "", nil, fmt.Errorf("%s of %s in a clean worktree: %w", label, t.ID, err)
	}
	r.carryEnvironments(wt)
	return wt, func() {
		// A fresh context: the worktree must go even after an interruption.
		_ = r.repo.Worktrees().Remove(context.WithoutCancel(ctx), wt)
		_ = os.RemoveAll(tmp)
	}, nil
}

// cleanGateFiles is the largest repository (index entries) whose agent
// tasks get their gates in a clean worktree by default. A checkout costs
// about as much as copying the files: on the 2-core machine this was
// written on, under load, 0.4 s at 200 files, 5.8 s at 2,000, 29 s at
// 20,000 (README, "Gates in a clean worktree"). Past this size the default
// is the work tree, and --clean-gates opts in.
const cleanGateFiles = 1000

// cleanGates says whether t's gates run in a clean worktree: as the user
// chose, else for agent tasks of small repositories that hold no ignored
// file at all: where the gates may need one (node_modules/, a local
// config), the clean checkout would fail them for the wrong reason.
func (tu *turn) cleanGates(ctx context.Context) bool {
	r, t := tu.r, tu.t
	switch r.o.GatesIn {
	case GatesClean:
		return true
	case GatesTree:
		return false
	}
	if r.executorFor(t) != "agent" || r.repo.Index().Entries() > cleanGateFiles {
		return false
	}
	if tu.watch != nil {
		return len(tu.watch.Ignored) == 0
	}
	ignored, err := r.repo.Index().IgnoredFiles(ctx)
	return err == nil && len(ignored) == 0
}

// environments are the ignored directories at the top of a work tree that
// hold what the tests need installed, not build output: a clean checkout
// gets a link to each, or a gate would fail for want of its dependencies.
func environments() []string { return []string{"node_modules/", ".venv/", "venv/"} }

// carryEnvironments links the work tree's ignored environments into the
// checkout wt. Links, not copies: they can be large. An agent that changed
// one is caught by the check of installed test runners (deps.go).
func (r *runner) carryEnvironments(wt string) {
	for _, e := range environments() {
		if !slices.Contains(r.ignored, e) {
			continue
		}
		name := strings.TrimSuffix(e, "/")
		if _, err := os.Lstat(filepath.Join(wt, name)); err == nil {
			continue // tracked in this tree
		}
		_ = os.Symlink(filepath.Join(r.repo.Root, name), filepath.Join(wt, name))
	}
}
