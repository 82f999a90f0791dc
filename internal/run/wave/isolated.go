package wave

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
)

// Isolated is one wave task's run in a slot of its own, made from the
// wave's base: the task's path (execute, verify, the judge's checks, the
// gates) is the run's (Runner.Turn), so that a test runs a task with a
// fake on a real repository and no run.
type Isolated struct {
	Pool   *Pool
	Base   gitops.SHA // the branch's tip the wave's slots start from
	Task   *Task      // kept at its Dir if it fails
	Drop   []string   // paths planx writes itself (the plan, the log): never the task's work
	Hooks  Hooks      // pre-commit runs on the task's work before it is recorded
	Runner Runner
}

// Ran is what a wave task's isolated run left.
type Ran struct {
	Work   gitops.SHA // the task's work: a commit whose parent is the wave's base
	Files  []string   // the files it changed, sorted, planx's own left out
	Listed bool       // Files were listed: the task's steps ran to the end
	Fail   *outcome.Failure
	Err    error // could not be run at all, or interrupted
}

// Run executes, verifies and gates the task in a slot taken from the pool,
// and records its whole result as a commit on the wave's base. It never
// touches the user's work tree. A failed task's slot is kept at its Dir
// for the person; any other goes back to the pool.
func (o Isolated) Run(ctx context.Context) Ran {
	var ran Ran
	slot, err := o.run(ctx, &ran)
	if errors.As(err, &ran.Fail) {
		err = nil
	}
	ran.Err = err
	switch {
	case slot == "":
	case ran.Fail != nil:
		if err := o.Pool.Keep(ctx, slot, o.Task.Dir); err != nil {
			ran.Fail.What += " (its work tree could not be kept: " + err.Error() + ")"
		}
	default:
		o.Pool.Put(slot)
	}
	return ran
}

// run is Run in the slot it takes, which it returns ("" when none).
func (o Isolated) run(ctx context.Context, ran *Ran) (string, error) {
	slot, err := o.Pool.Take(ctx, o.Base)
	if err != nil {
		return "", err
	}
	wt, err := gitops.Open(ctx, slot)
	if err != nil {
		return slot, err
	}
	if err := o.Runner.Turn(ctx, o.Task, wt); err != nil {
		return slot, err
	}
	// The task's work is what its turn staged and judged, as in the work
	// tree: its gates checked that nothing changed since (a change after
	// them is not the task's, and is not committed in the serial path
	// either), so the index is the tree, without another walk of the slot.
	tree, err := wt.Index().Tree(ctx)
	if err != nil {
		return slot, err
	}
	files, err := wt.History().ChangedFiles(ctx, o.Base, tree)
	if err != nil {
		return slot, err
	}
	ran.Files, ran.Listed = dropPaths(files, o.Drop...), true
	if tree, err = o.Hooks.PreCommit(ctx, wt, o.Task.T, tree); err != nil {
		return slot, err
	}
	ran.Work, err = wt.Objects().CommitTree(ctx, tree, fmt.Sprintf("planx: work of %s, before integration\n", o.Task.T.ID), o.Base, false)
	return slot, err
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
