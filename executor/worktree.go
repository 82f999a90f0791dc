package executor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
	"github.com/planx-dev/planx/verify"
)

// isolated is one task of a wave run in its own linked work tree.
type isolated struct {
	t    *planparse.Task
	lt   *execlog.Task // the task's log entry: own while it runs, r.log's after
	own  execlog.Task
	dir  string // where the task's work tree is kept if it fails
	slot string // the work tree it runs in
	// groups are the plan's groups its commit completes (ticked with it).
	groups []*planparse.Task
	work   gitops.SHA // the task's work: a commit whose parent is the wave's base
	fail   *outcome.Failure
	err    error // could not be run at all, or interrupted
	// warnings are its Planx-Warning values (e.g. outside-declared=…),
	// written into its commit at integration.
	warnings []string
}

// runIsolated executes, verifies and gates one task in a fresh work tree
// made from the wave's base, and records its whole result as a commit on
// it. It never touches the user's work tree; its output lines go through
// the wave's lock.
func (wv *wave) runIsolated(ctx context.Context, it *isolated) {
	r := wv.r
	it.err = wv.isolatedErr(ctx, it)
	if errors.As(it.err, &it.fail) {
		it.err = nil
	}
	switch {
	case it.slot == "":
	case it.fail != nil:
		if err := r.pool.Keep(ctx, it.slot, it.dir); err != nil {
			it.fail.What += " (its work tree could not be kept: " + err.Error() + ")"
		}
	default:
		r.pool.Put(it.slot)
	}
}

func (wv *wave) isolatedErr(ctx context.Context, it *isolated) error {
	r := wv.r
	t := it.t
	slot, err := r.pool.Take(ctx, wv.base)
	if err != nil {
		return err
	}
	it.slot = slot
	wt, err := gitops.Open(ctx, slot)
	if err != nil {
		return err
	}
	if err := execute.Steps(ctx, t, it.lt, wv.slotOptions(wt.Root)); err != nil {
		return err
	}
	tree, err := wt.Index().StageAllTree(ctx)
	if err != nil {
		return err
	}
	files, err := wt.History().ChangedFiles(ctx, wv.base, tree)
	if err != nil {
		return err
	}
	files = dropPaths(files, r.planRel, r.log.Path)
	it.lt.Files = files
	if len(files) == 0 && !t.Checkpoint {
		return &outcome.Failure{What: "no changes: the task was expected to change the repository and changed nothing (mark it `Checkpoint: yes` if it only verifies)"}
	}
	if err := wv.declaredIn(wt.Root, it, files); err != nil {
		return err
	}
	if err := wv.isolatedGates(ctx, it, wt.Root); err != nil {
		return err
	}
	// The judge does not change the evidence: the work is the tree the task
	// left, and a gate that changed it fails the task as in a serial run.
	after, err := wt.Index().StageAllTree(ctx)
	if err != nil {
		return err
	}
	if after != tree {
		changed, err := wt.History().ChangedFiles(ctx, tree, after)
		if err != nil {
			return err
		}
		return &outcome.Failure{What: fmt.Sprintf("files changed while the gates ran: %s (a gate must not change the work it judges; in a parallel wave no gate may, fix: true included: run such a task with --jobs 1)", strings.Join(changed, ", "))}
	}
	if tree, err = r.waveHooks().PreCommit(ctx, wt, t, tree); err != nil {
		return err
	}
	it.work, err = wt.Objects().CommitTree(ctx, tree, fmt.Sprintf("planx: work of %s, before integration\n", t.ID), wv.base, false)
	return err
}

// isolatedGates runs the task's acceptance commands and gates (not the
// final ones: those run on the integrated tree) in its work tree.
func (wv *wave) isolatedGates(ctx context.Context, it *isolated, dir string) error {
	r := wv.r
	sel := append(gates.Acceptance(it.t), gates.Select(r.Gates, it.t.Gates, false)...)
	o := r.gateRun()
	o.Lock = &wv.mu
	out, err := o.Run(ctx, gaterun.Spec{Task: it.t, Dir: dir, Gates: sel, Live: true})
	wv.mu.Lock()
	it.lt.Gates = out.Gates
	wv.mu.Unlock()
	if err != nil {
		return err
	}
	return out.Failure
}

// slotOptions are the run's execOptions for a task in the slot dir: its
// steps run there unconfined, print under the wave's lock, and record no
// pid (the wave's tasks run at once) and no crash point.
func (wv *wave) slotOptions(dir string) execute.Options {
	o := wv.r.execOptions()
	o.Dir, o.Slot, o.Shared = dir, true, &wv.mu
	o.Fault, o.Pids, o.Jail = "", execute.Pids{}, nil
	return o
}

// declaredIn checks a wave task's work in root against the files it
// declares, as verify does on the serial path.
func (wv *wave) declaredIn(root string, it *isolated, files []string) error {
	outside, err := verify.Declared(root, it.t, files, wv.r.o.StrictFiles)
	if err == nil && len(outside) > 0 {
		wv.mu.Lock()
		it.warnings = append(it.warnings, wv.r.warnOutside(it.t, outside))
		wv.mu.Unlock()
	}
	return err
}

func dropPaths(files []string, drop ...string) []string {
	var out []string
	for _, f := range files {
		keep := true
		for _, d := range drop {
			keep = keep && f != d
		}
		if keep {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// endRun drops what a run keeps while it lasts: the slot work trees, the
// ignored files kept aside, then the state itself.
func endRun(repo *gitops.Repo) error {
	dropRunWorktrees(repo)
	_ = os.RemoveAll(keptDir(repo))
	return runstate.Remove(repo)
}
