package executor

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/ledger"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstate"
	wavepkg "github.com/planx-dev/planx/wave"
)

// staged is a task commit built on the wave's staging chain.
type staged struct {
	it     *isolated
	commit gitops.SHA
	plan   []byte // the plan as this commit has it
	// What the commit was made of, to make it again with the integration
	// gate's trailers (seal).
	tree, parent gitops.SHA
	msg          string
}

// integrate applies a wave's results to the branch one at a time in plan
// order, each as its own task commit made by a three-way merge onto the
// chain so far (wave.Chain), gates the combined tree once, and only then
// moves the branch and the user's work tree, in one step.
func (wv *wave) integrate(ctx context.Context) error {
	r := wv.r
	for _, it := range wv.its {
		if it.err != nil {
			wv.dropWorktrees(nil)
			return r.stopTask(ctx, it.t, it.err, wv.res)
		}
	}
	works := make([]wavepkg.Work, len(wv.its))
	for i, it := range wv.its {
		works[i] = wavepkg.Work{ID: it.t.ID, Commit: it.work, Failed: it.fail != nil}
	}
	plan := r.pf.Src
	var chain []staged
	stage := func(ctx context.Context, i int, merged, parent gitops.SHA, final bool) (gitops.SHA, error) {
		s, err := wv.stageCommit(ctx, wv.its[i], merged, parent, plan, final)
		if err != nil {
			return "", err
		}
		chain = append(chain, s)
		plan = s.plan
		r.fault.At("after-stage-commit")
		return s.commit, nil
	}
	fails, at, err := wavepkg.Chain(ctx, r.repo, wv.base, works, wv.last, stage)
	for i, f := range fails {
		if f != nil {
			wv.its[i].fail = f
		}
	}
	if err != nil {
		return r.stopTask(ctx, wv.its[at].t, err, wv.res)
	}
	keep, passed, err := wv.gate(ctx, chain)
	if err == nil {
		err = wv.seal(ctx, chain[:keep], passed)
	}
	if err != nil {
		wv.dropWorktrees(nil)
		return r.stopTask(ctx, wv.its[0].t, err, wv.res)
	}
	return wv.land(ctx, chain[:keep])
}

// stageCommit makes it's task commit on parent: the merged tree with the
// plan ticked and the log updated, moving no ref.
func (wv *wave) stageCommit(ctx context.Context, it *isolated, merged, parent gitops.SHA, plan []byte, final bool) (staged, error) {
	r := wv.r
	t, lt := it.t, it.lt
	ticked, anyTick := planparse.Tick(plan, t)
	// Groups this task completes are ticked in the same commit, as in turn.
	groups := r.CompletedGroups(t, r.done, r.o.Optional)
	for _, g := range groups {
		var ok bool
		ticked, ok = planparse.Tick(ticked, g)
		anyTick = anyTick || ok
	}
	// The message is the hooks' to check or change before anything is
	// recorded: a refused task leaves its log entry and the log as they were.
	msg := ledger.TaskMessage(ledger.TaskCommit{PlanRel: r.planRel, RunID: r.st.RunID, Task: t, Log: lt, Groups: groups, Warnings: it.warnings, Skipped: r.st.SkipPending, Ticked: anyTick}) + fmt.Sprintf("%s: %d %s\n", record.TrailerWave, wv.number, wv.base)
	msg, err := r.waveHooks().Message(ctx, r.repo, t, msg)
	if err != nil {
		return staged{}, err
	}
	now := r.o.now()
	lt.Status, lt.Finished, lt.Commit = record.TaskDone, now, ""
	if final {
		r.log.Status, r.log.Finished = record.RunCompleted, now
	}
	tree, err := r.repo.Objects().TreeWithFiles(ctx, merged, map[string][]byte{r.planRel: ticked, r.log.Path: r.log.Render()})
	if err != nil {
		return staged{}, fmt.Errorf("commit task %s: %w", t.ID, err)
	}
	c, err := r.repo.Objects().CommitTree(ctx, tree, msg, parent, r.sign)
	if err != nil {
		return staged{}, fmt.Errorf("commit task %s: %w", t.ID, err)
	}
	lt.Commit = string(c)
	// Done for the tasks after it in the chain; land undoes this for a
	// commit the branch does not take.
	it.groups = groups
	r.done[t.ID] = true
	for _, g := range groups {
		r.done[g.ID] = true
	}
	r.st.SkipPending = nil
	return staged{it: it, commit: c, plan: ticked, tree: tree, parent: parent, msg: msg}, nil
}

// land moves the branch and the user's work tree to the last kept commit in
// one step, removes the work trees of integrated tasks, and stops the run
// at the first task of the wave that failed, keeping its work tree.
func (wv *wave) land(ctx context.Context, keep []staged) error {
	r := wv.r
	integrated := map[*isolated]bool{}
	if len(keep) > 0 {
		tip := keep[len(keep)-1]
		trees := make([]gitops.SHA, len(keep))
		for i, s := range keep {
			trees[i] = r.keeper().Book().RecordWaveCommit(ctx, s.it.t.ID, s.commit)
		}
		if err := wavepkg.RestoreLog(ctx, r.repo, wv.base, r.log.Path); err != nil {
			return r.stopTask(ctx, keep[0].it.t, err, wv.res)
		}
		if err := r.repo.Advance(ctx, wv.base, tip.commit, "planx: integrate wave"); err != nil {
			return r.stopTask(ctx, keep[0].it.t, err, wv.res)
		}
		r.fault.At("after-advance")
		r.expect, r.pf.Src, r.dirty = tip.commit, tip.plan, nil
		for i, s := range keep {
			integrated[s.it] = true
			wv.res.Done = append(wv.res.Done, s.it.t.ID)
			r.out.TaskDone(s.it.t, s.commit)
			noteGates(ctx, r.repo, r.out, s.it.t, s.it.lt, s.commit, trees[i])
		}
	}
	for _, it := range wv.its {
		if it.fail != nil && it.work != "" {
			// Failed at integration: its slot went to the next task; its
			// work is checked out again under its name for the person.
			if _, err := os.Stat(it.dir); err != nil {
				_ = wavepkg.FreshWorktree(ctx, r.repo, it.dir, it.work)
			}
		}
		if it.work != "" {
			_ = r.repo.Refs().Delete(ctx, workRef(r.st.RunID, it.t.ID))
		}
	}
	r.st.Wave, r.st.WaveBase, r.st.WaveDone, r.st.WaveNumber = nil, "", nil, 0
	var first *isolated
	for _, it := range wv.its {
		switch {
		case integrated[it]:
		case it.fail != nil:
			it.lt.Status, it.lt.Commit = record.TaskFailed, ""
			it.fail.What += "; its work is kept in the work tree " + wavepkg.Rel(r.repo, it.dir)
			if first == nil {
				first = it
				continue // books.stop records it
			}
			it.lt.Failure = it.fail.ForUser()
			r.log.Issues = append(r.log.Issues, r.issue(it.t.ID, it.fail.ForUser()))
		default:
			// Passed, but after the task that broke the integration gate:
			// not integrated; it runs again when the run goes on.
			it.lt.Status, it.lt.Commit = record.TaskPending, ""
		}
		if !integrated[it] {
			delete(r.done, it.t.ID)
			for _, g := range it.groups {
				delete(r.done, g.ID)
			}
		}
	}
	wv.dropWorktrees(func(it *isolated) bool { return it.fail == nil })
	if first == nil {
		return nil
	}
	// The failed task's attempt is its own work tree's; in the user's it
	// starts from the commits integrated before it (see waveAttempt).
	if err := r.waveAttempt(ctx, first.t); err != nil {
		return r.stopTask(ctx, first.t, err, wv.res)
	}
	r.log.Status, r.log.Finished = record.RunRunning, time.Time{}
	wv.res.Status = record.RunFailed
	wv.res.Next = nextSteps(r.st, r.repo, first.t)
	return r.books().stop(first.t, record.RunFailed, first.fail.ForUser(), first.fail.Tail, ErrTaskFailed, first.fail.See...)
}

// dropWorktrees removes the work trees of the wave's tasks for which drop
// says so (all when drop is nil).
func (wv *wave) dropWorktrees(drop func(*isolated) bool) {
	r := wv.r
	for _, it := range wv.its {
		if _, err := os.Stat(it.dir); err != nil {
			continue
		}
		if drop == nil || drop(it) {
			wavepkg.RemoveWorktree(r.repo, it.dir)
		}
	}
}

// waveNext is what to do after a stop in or after a parallel wave of the
// run st in repo (either nil before they are known), or "".
func waveNext(st *runstate.State, repo *gitops.Repo, t *planparse.Task) string {
	if st != nil && len(st.Wave) > 0 {
		return "the run stopped inside a parallel wave; `planx resume` integrates the tasks whose work was done, without running them again, and runs the others again"
	}
	if st == nil || repo == nil {
		return ""
	}
	if dir := wavepkg.Kept(repo, st.RunID, string(t.ID)); dir != "" {
		return fmt.Sprintf("the work of %s is kept in %s; fix the cause, then `planx resume` runs it again in your work tree, or `planx skip` skips it (either keeps what %s holds under refs/planx/runs/%s/worktrees/%s first)", t.ID, dir, dir, st.RunID, t.ID)
	}
	return ""
}
