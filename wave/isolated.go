package wave

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
)

// Isolated is one wave task's run in a slot of its own, made from the
// wave's base: what the run lends it (its steps, gates and declared-file
// check, bound to the task by the caller) is func-typed, so that a test
// runs a task with fakes on a real repository and no run.
type Isolated struct {
	Pool  *Pool
	Base  gitops.SHA // the branch's tip the wave's slots start from
	Task  *planparse.Task
	Keep  string   // where the task's work tree is kept if it fails
	Drop  []string // paths planx writes itself (the plan, the log): never the task's work
	Hooks Hooks    // pre-commit runs on the task's work before it is recorded
	// Steps runs the task's steps in dir.
	Steps func(ctx context.Context, dir string) error
	// Gates runs the task's acceptance commands and gates in dir (not the
	// final ones: those run on the integrated tree); a failed gate is an
	// *outcome.Failure.
	Gates func(ctx context.Context, dir string) error
	// Declared checks the files the task changed in root against those it
	// declares, as verify does on the serial path, and returns the
	// Planx-Warning value of files outside them ("" when none).
	Declared func(root string, files []string) (warning string, err error)
}

// Ran is what a wave task's isolated run left.
type Ran struct {
	Work     gitops.SHA // the task's work: a commit whose parent is the wave's base
	Files    []string   // the files it changed, sorted, planx's own left out
	Listed   bool       // Files were listed: the task's steps ran to the end
	Warnings []string   // its Planx-Warning values, written into its commit at integration
	Fail     *outcome.Failure
	Err      error // could not be run at all, or interrupted
}

// Run executes, verifies and gates the task in a slot taken from the pool,
// and records its whole result as a commit on the wave's base. It never
// touches the user's work tree. A failed task's slot is kept under Keep for
// the person; any other goes back to the pool.
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
		if err := o.Pool.Keep(ctx, slot, o.Keep); err != nil {
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
	if err := o.Steps(ctx, wt.Root); err != nil {
		return slot, err
	}
	tree, err := wt.Index().StageAllTree(ctx)
	if err != nil {
		return slot, err
	}
	files, err := wt.History().ChangedFiles(ctx, o.Base, tree)
	if err != nil {
		return slot, err
	}
	ran.Files, ran.Listed = dropPaths(files, o.Drop...), true
	if len(ran.Files) == 0 && !o.Task.Checkpoint {
		return slot, &outcome.Failure{What: "no changes: the task was expected to change the repository and changed nothing (mark it `Checkpoint: yes` if it only verifies)"}
	}
	warning, err := o.Declared(wt.Root, ran.Files)
	if warning != "" {
		ran.Warnings = append(ran.Warnings, warning)
	}
	if err != nil {
		return slot, err
	}
	if err := o.Gates(ctx, wt.Root); err != nil {
		return slot, err
	}
	if tree, err = o.judged(ctx, wt, tree); err != nil {
		return slot, err
	}
	ran.Work, err = wt.Objects().CommitTree(ctx, tree, fmt.Sprintf("planx: work of %s, before integration\n", o.Task.ID), o.Base, false)
	return slot, err
}

// judged returns the tree to record once the gates have run on tree in wt.
// The judge does not change the evidence: the work is the tree the task
// left, and a gate that changed it fails the task as in a serial run.
func (o Isolated) judged(ctx context.Context, wt *gitops.Repo, tree gitops.SHA) (gitops.SHA, error) {
	after, err := wt.Index().StageAllTree(ctx)
	if err != nil {
		return "", err
	}
	if after != tree {
		changed, err := wt.History().ChangedFiles(ctx, tree, after)
		if err != nil {
			return "", err
		}
		return "", &outcome.Failure{What: fmt.Sprintf("files changed while the gates ran: %s (a gate must not change the work it judges; in a parallel wave no gate may, fix: true included: run such a task with --jobs 1)", strings.Join(changed, ", "))}
	}
	return o.Hooks.PreCommit(ctx, wt, o.Task, tree)
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
