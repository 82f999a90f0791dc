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
// links are ignored entries of the work tree the gates may use there
// (node_modules/, a local config): each gets a symbolic link to itself.
// It returns the directory and how to remove it.
func (r *runner) cleanTree(ctx context.Context, t *planparse.Task, links []string) (string, func(), error) {
	sha, err := r.repo.Index().StagedCommit(ctx, r.expect)
	if err != nil {
		return "", nil, fmt.Errorf("gates of %s in a clean worktree: %w", t.ID, err)
	}
	return r.checkout(ctx, t, sha, "gates", links)
}

// checkout checks commit sha out into a temporary linked worktree under
// the run's directory in .git/ (git never scans it, so the checkout cannot
// show up as a change of the task, wherever TMPDIR is), with a link to
// each of the work tree's ignored entries links. It returns the directory
// and how to remove it.
func (r *runner) checkout(ctx context.Context, t *planparse.Task, sha gitops.SHA, label string, links []string) (string, func(), error) {
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
	made := linkIgnored(r.repo.Root, wt, links)
	return wt, func() {
		// The links go first: nothing may follow them into the work tree.
		for _, l := range made {
			_ = os.Remove(l)
		}
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

// cleanGates says whether t's gates run in a clean worktree, and which
// ignored entries of the work tree are linked into it: as the user chose,
// else for agent tasks that left ignored outputs (ignored.go), which the
// commit leaves out, with the ignored entries that were there before the
// agent ran; else for agent tasks of small repositories that hold no
// ignored file at all: where the gates may need one (node_modules/, a
// local config), an unlinked clean checkout would fail them for the wrong
// reason.
func (tu *turn) cleanGates(ctx context.Context) (bool, []string) {
	r, t := tu.r, tu.t
	switch r.o.GatesIn {
	case GatesClean:
		return true, nil
	case GatesTree:
		return false, nil
	}
	if r.executorFor(t) != "agent" {
		return false, nil
	}
	if len(tu.outputs) > 0 && tu.watch != nil {
		// Checked-out submodules are linked too: a worktree has them empty.
		subs, _ := r.repo.Index().Submodules(ctx)
		return true, append(slices.Clone(tu.watch.Ignored), subs...)
	}
	if r.repo.Index().Entries() > cleanGateFiles {
		return false, nil
	}
	if tu.watch != nil {
		return len(tu.watch.Ignored) == 0, nil
	}
	ignored, err := r.repo.Index().IgnoredFiles(ctx)
	return err == nil && len(ignored) == 0, nil
}

// linkIgnored makes, in the checkout wt, a symbolic link to each of the
// entries of root (ignored files, submodules) that still exist, where the
// checkout has nothing or an empty directory, and returns the links made.
func linkIgnored(root, wt string, entries []string) []string {
	var made, linked []string
	for _, e := range entries {
		e = strings.TrimSuffix(e, "/")
		src := relJoin(root, e)
		if _, err := os.Lstat(src); err != nil || !filepath.IsLocal(filepath.FromSlash(e)) ||
			slices.ContainsFunc(linked, func(l string) bool { return covers(l, e) }) {
			continue // nothing is made through a link, into the work tree
		}
		dst := filepath.Join(wt, filepath.FromSlash(e))
		if os.MkdirAll(filepath.Dir(dst), 0o755) != nil {
			continue
		}
		if fi, err := os.Lstat(dst); err == nil && fi.IsDir() {
			_ = os.Remove(dst) // a submodule's empty directory; a full one stays
		}
		if os.Symlink(src, dst) == nil {
			made, linked = append(made, dst), append(linked, e)
		}
	}
	return made
}
