package wave

import (
	"context"
	"os"
	"slices"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// Landing integrates a wave whose tasks ran in their slots: each task's
// work is staged as its own task commit on the chain in plan order
// (Chain), the combined tree is gated once (Gate, bisecting for the task
// that breaks it), the gates' results are sealed into the last commit
// kept, and only then do the branch and the user's work tree move, in one
// step. The run's records are handed in as values and written as the
// serial path's commit writes them (stage); running the gates is the
// run's (Runner.Gate).
type Landing struct {
	Repo     *gitops.Repo
	Pool     *Pool
	Base     gitops.SHA      // the branch's tip the wave's work trees start from
	Number   int             // the wave's number in the run, for its trailers and messages
	Last     bool            // the run's last wave
	Next     int             // how many slots the next wave takes at once (0: none): see Gate.Next
	Tasks    []*Task         // in plan order
	Plan     []byte          // the plan file as Base has it
	PlanRel  string          // the plan file, relative to the root, with slashes
	Parsed   *planparse.Plan // the plan parsed: the groups a task's commit completes
	Optional bool            // --optional: a group is complete without its optional tasks done
	Sign     bool
	Hooks    Hooks
	Fault    fault.Hook

	// The run's records: its log (each task's entry, and the run's end
	// with its last commit), written into each task commit; its state
	// (the skips a first commit records, the notes of how tasks were
	// finished after a stop); Done, the tasks and groups committed so far,
	// which a commit staged adds to for the tasks after it in the chain;
	// Book, the gates passed and the commits landed; Desk, what the
	// landing finds.
	Log   *execlog.Log
	State *runstate.State
	Done  map[planparse.TaskID]bool
	Book  ledger.Book
	Desk  hall.Desk
	// Gated says a gate is selected for the wave: its integration gate
	// runs (Runner.Gate) on the combined tree.
	Gated  bool
	Runner Runner
}

// staged is a task commit built on the wave's staging chain.
type staged struct {
	t      *Task
	commit gitops.SHA
	plan   []byte // the plan as this commit has it
	// What the commit was made of, to make it again with the integration
	// gate's trailers (seal).
	tree, parent gitops.SHA
	msg          string
}

// Landed is what a wave's landing moved the branch to: the tasks
// integrated in plan order, their commits and trees, and the plan as the
// last commit has it.
type Landed struct {
	Tasks   []*Task
	Commits []gitops.SHA
	Trees   []gitops.SHA
	Plan    []byte
}

// Tip is the last commit landed, "" when none was.
func (ld Landed) Tip() gitops.SHA {
	if len(ld.Commits) == 0 {
		return ""
	}
	return ld.Commits[len(ld.Commits)-1]
}

// Run stages, gates and lands the wave. A task that failed in the chain
// or the gate has its Fail set; an error stops the run at the task
// returned with it. The failed tasks' work trees, the work refs and the
// slots are the caller's to settle once it has recorded them (Finish).
func (l *Landing) Run(ctx context.Context) (Landed, *Task, error) {
	for _, t := range l.Tasks {
		if t.Err != nil {
			l.Drop(nil)
			return Landed{}, t, t.Err
		}
	}
	works := make([]Work, len(l.Tasks))
	for i, t := range l.Tasks {
		works[i] = Work{ID: t.T.ID, Commit: t.Work, Failed: t.Fail != nil}
	}
	plan := l.Plan
	var chain []staged
	stage := func(ctx context.Context, i int, merged, parent gitops.SHA, final bool) (gitops.SHA, error) {
		s, err := l.stage(ctx, l.Tasks[i], merged, parent, plan, final)
		if err != nil {
			return "", err
		}
		chain = append(chain, s)
		plan = s.plan
		l.Fault.At("after-stage-commit")
		return s.commit, nil
	}
	fails, at, err := Chain(ctx, l.Repo, l.Base, works, l.Last, stage)
	for i, f := range fails {
		if f != nil {
			l.Tasks[i].Fail = f
		}
	}
	if err != nil {
		return Landed{}, l.Tasks[at], err
	}
	keep, passed, err := l.gate(ctx, chain)
	if err == nil {
		err = l.seal(ctx, chain[:keep], passed)
	}
	if err != nil {
		l.Drop(nil)
		return Landed{}, l.Tasks[0], err
	}
	return l.land(ctx, chain[:keep])
}

// land records the kept commits and moves the branch and the user's work
// tree to the last one in one step.
func (l *Landing) land(ctx context.Context, keep []staged) (Landed, *Task, error) {
	var ld Landed
	if len(keep) == 0 {
		return ld, nil, nil
	}
	for _, s := range keep {
		ld.Tasks = append(ld.Tasks, s.t)
		ld.Commits = append(ld.Commits, s.commit)
		ld.Trees = append(ld.Trees, l.Book.RecordWaveCommit(ctx, s.t.T.ID, s.commit))
	}
	if err := RestoreLog(ctx, l.Repo, l.Base, l.Log.Path); err != nil {
		return Landed{}, keep[0].t, err
	}
	if err := l.advance(ctx, keep[0].t.T.ID, ld.Tip()); err != nil {
		return Landed{}, keep[0].t, err
	}
	l.Fault.At("after-advance")
	ld.Plan = keep[len(keep)-1].plan
	return ld, nil, nil
}

// Finish settles the wave's tasks once the caller has recorded the
// landing: a task that failed at integration (its slot went to the next
// task) has its work checked out again under its name for the person, the
// work refs go, and the work trees of the tasks that did not fail are
// removed.
func (l *Landing) Finish(ctx context.Context) {
	var refs []string
	for _, t := range l.Tasks {
		if t.Fail != nil && t.Work != "" {
			if _, err := os.Stat(t.Dir); err != nil {
				_ = FreshWorktree(ctx, l.Repo, t.Dir, t.Work)
			}
		}
		if t.Work != "" {
			refs = append(refs, WorkRef(l.State.RunID, t.T.ID))
		}
	}
	_ = l.Repo.Refs().Delete(ctx, refs...)
	l.Drop(func(t *Task) bool { return t.Fail == nil })
}

// Drop removes the work trees of the wave's tasks for which drop says so
// (all when drop is nil).
func (l *Landing) Drop(drop func(*Task) bool) {
	for _, t := range l.Tasks {
		if _, err := os.Stat(t.Dir); err != nil {
			continue
		}
		if drop == nil || drop(t) {
			RemoveWorktree(l.Repo, t.Dir)
		}
	}
}

// Settle records in their log entries the tasks the landing did not
// integrate (ld): those that failed, each with its work tree named, and
// those that passed after the task that broke the integration gate,
// pending (they run again when the run goes on). It returns the first
// failed task, whose failure the run's stop records; the others' are
// recorded as issues. A task not integrated is not done: its commit,
// staged, is not the branch's.
func (l *Landing) Settle(ld Landed) *Task {
	var first *Task
	for _, t := range l.Tasks {
		if slices.Contains(ld.Tasks, t) {
			continue
		}
		if t.Fail == nil {
			t.Log.Status, t.Log.Commit = record.TaskPending, ""
			l.unstage(t)
			continue
		}
		t.Log.Status, t.Log.Commit = record.TaskFailed, ""
		if _, err := os.Stat(t.Dir); err == nil || t.Work != "" {
			// (Finish checks a task's work out there again.) A task that
			// ran elsewhere, a CI job's, has none here to keep.
			t.Fail.What += "; its work is kept in the work tree " + Rel(l.Repo, t.Dir)
		}
		if first == nil {
			first = t
			continue
		}
		t.Log.Failure = t.Fail.ForUser()
		l.Desk.Issue(t.T.ID, t.Fail.ForUser(), "")
		l.unstage(t)
	}
	return first
}
