package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
)

// staged is a task commit built on the wave's staging chain.
type staged struct {
	it     *isolated
	commit gitops.SHA
	plan   []byte // the plan as this commit has it
	// What the commit was made of, to make it again with the integration
	// gate's trailers (sealWave).
	tree, parent gitops.SHA
	msg          string
}

// integrate applies a wave's results to the branch one at a time in plan
// order, each as its own task commit made by a three-way merge onto the
// chain so far (no work tree involved), gates the combined tree once, and
// only then moves the branch and the user's work tree, in one step.
func (r *runner) integrate(ctx context.Context, its []*isolated, base gitops.SHA, number int, last bool, res *Result) error {
	for _, it := range its {
		if it.err != nil {
			r.dropWorktrees(its, nil)
			return r.stopTask(ctx, it.t, it.err, res)
		}
	}
	anyFailed := false
	for _, it := range its {
		anyFailed = anyFailed || it.fail != nil
	}
	tip, plan := base, r.planSrc
	var chain []staged
	for i, it := range its {
		if it.fail != nil {
			continue
		}
		merged, conflicts, err := r.repo.Objects().MergeTrees(ctx, tip, it.work)
		if err != nil {
			return r.stopTask(ctx, it.t, err, res)
		}
		if len(conflicts) > 0 {
			it.fail = &taskFailure{what: fmt.Sprintf("its changes conflict with the tasks integrated before it (%s) in: %s",
				strings.Join(chainIDs(chain), ", "), strings.Join(conflicts, ", "))}
			anyFailed = true
			continue
		}
		final := last && i == len(its)-1 && !anyFailed
		s, err := r.stageCommit(ctx, it, merged, tip, plan, number, base, final)
		if errors.As(err, &it.fail) {
			anyFailed = true // a commit hook refused it: as a conflict
			continue
		}
		if err != nil {
			return r.stopTask(ctx, it.t, err, res)
		}
		chain = append(chain, s)
		tip, plan = s.commit, s.plan
		r.fault("after-stage-commit")
	}
	keep, passed, err := r.gateWave(ctx, chain, number, last)
	if err == nil {
		err = r.sealWave(ctx, chain[:keep], passed)
	}
	if err != nil {
		r.dropWorktrees(its, nil)
		return r.stopTask(ctx, its[0].t, err, res)
	}
	return r.land(ctx, its, chain[:keep], base, res)
}

// stageCommit makes it's task commit on parent: the merged tree with the
// plan ticked and the log updated, moving no ref.
func (r *runner) stageCommit(ctx context.Context, it *isolated, merged, parent gitops.SHA, plan []byte, number int, base gitops.SHA, final bool) (staged, error) {
	t, lt := it.t, it.lt
	ticked, _ := planparse.Tick(plan, t)
	// Groups this task completes are ticked in the same commit, as in turn.
	groups := r.completedGroups(t)
	for _, g := range groups {
		ticked, _ = planparse.Tick(ticked, g)
	}
	// The message is the hooks' to check or change before anything is
	// recorded: a refused task leaves its log entry and the log as they were.
	// Integration is serial: the task's own warnings stand in for the
	// serial path's for the length of its message.
	r.warnings = it.warnings
	msg := taskMessage(r, t, lt, groups) + fmt.Sprintf("%s: %d %s\n", record.TrailerWave, number, base)
	r.warnings = nil
	msg, err := r.messageHooks(ctx, t, msg)
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

// gateWave runs the gates once on the wave's combined tree. When they fail
// it bisects over the chain for the first task whose addition breaks them
// (the wave's base is taken as passing: each task passed alone on it), and
// returns how many commits of the chain to keep, marking the breaking
// task failed, and the gates' passing results on the last commit kept (nil
// when none ran).
func (r *runner) gateWave(ctx context.Context, chain []staged, number int, last bool) (int, []execlog.Gate, error) {
	sel := gates.Select(r.gates, nil, last)
	if len(chain) == 0 || len(sel) == 0 {
		return len(chain), nil, nil
	}
	// A slot the wave's tasks are done with, checked out at each commit to gate.
	dir, err := r.pool.take(ctx, r.repo, chain[len(chain)-1].commit)
	if err != nil {
		return 0, nil, err
	}
	defer r.pool.put(dir)
	wt, err := gitops.Open(ctx, dir)
	if err != nil {
		return 0, nil, err
	}
	ref := waveRef(r.st.RunID)
	if err := r.repo.Refs().Update(ctx, ref, chain[len(chain)-1].commit, "", "planx: stage a wave"); err != nil {
		return 0, nil, err
	}
	passed := map[int][]execlog.Gate{} // the commits the gates passed on
	defer func() { _ = r.repo.Refs().Delete(context.Background(), ref) }()
	check := func(i int) (*taskFailure, error) {
		name := fmt.Sprintf("wave%d-%s", number, chain[i].it.t.ID)
		results, err := r.gateAt(ctx, wt, chain[i].commit, name, sel)
		if err != nil {
			return nil, err
		}
		var f *taskFailure
		if !errors.As(gateFailure(results), &f) {
			gs := make([]execlog.Gate, len(results))
			for j, g := range results {
				gs[j] = logGate(g)
			}
			r.recordWaveGates(ctx, &planparse.Task{ID: planparse.TaskID(name)}, chain[i].commit, gs)
			passed[i] = gs
		}
		return f, nil
	}
	hi := len(chain) - 1
	fail, err := check(hi)
	if err != nil || fail == nil {
		return len(chain), passed[hi], err
	}
	r.out.warn(chain[hi].it.t.ID, fmt.Sprintf("integration gate failed on wave %d's combined tree (%s); bisecting", number, fail.what))
	lo := -1 // the base: passing
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		f, err := check(mid)
		if err != nil {
			return 0, nil, err
		}
		if f != nil {
			hi, fail = mid, f
		} else {
			lo = mid
		}
	}
	before := chainIDs(chain[:hi])
	with := "on the wave's base"
	if len(before) > 0 {
		with = "after " + strings.Join(before, ", ")
	}
	fail.what = fmt.Sprintf("integration gate: %s once %s is added %s (it passed its gates alone; %s breaks the combined tree)",
		fail.what, chain[hi].it.t.ID, with, chain[hi].it.t.ID)
	chain[hi].it.fail = fail
	// The base passed (lo = -1) or chain[lo], the last commit kept, did.
	return hi, passed[lo], nil
}

// sealWave writes the integration gate's results into the wave's last
// commit kept, whose tree is the one they ran on, as Planx-Wave-Gate
// trailers: the commit is made again (same tree, same parent) with them
// before any ref names it, so that verify reads from history what was
// gated on the combined tree.
func (r *runner) sealWave(ctx context.Context, keep []staged, passed []execlog.Gate) error {
	if len(keep) == 0 || len(passed) == 0 {
		return nil
	}
	s := &keep[len(keep)-1]
	msg := strings.TrimRight(s.msg, "\n") + "\n"
	for _, g := range passed {
		msg += fmt.Sprintf("%s: %s\n", record.TrailerWaveGate, gateTrailer(g))
	}
	c, err := r.repo.Objects().CommitTree(ctx, s.tree, msg, s.parent, r.sign)
	if err != nil {
		return fmt.Errorf("commit task %s: %w", s.it.t.ID, err)
	}
	s.commit, s.msg = c, msg
	s.it.lt.Commit = string(c)
	return nil
}

// gateAt runs gates on commit c in the wave's gate work tree wt.
func (r *runner) gateAt(ctx context.Context, wt *gitops.Repo, c gitops.SHA, name string, sel []gates.Gate) ([]gates.Result, error) {
	if err := wt.CheckoutClean(ctx, c); err != nil {
		return nil, err
	}
	id := planparse.TaskID(name)
	defer r.faultSoon("during-wave-gate", 100*time.Millisecond)()
	results, err := gates.Run(ctx, sel, gates.RunOptions{Dir: wt.Root, Env: append(r.env(&planparse.Task{ID: id}), "PLANX_WORKTREE="+wt.Root),
		OutDir: runDir(r.repo, r.st.RunID), Task: id})
	for _, g := range results {
		r.out.gate(id, g)
	}
	return results, err
}

func chainIDs(chain []staged) []string {
	ids := make([]string, len(chain))
	for i, s := range chain {
		ids[i] = string(s.it.t.ID)
	}
	return ids
}

// land moves the branch and the user's work tree to the last kept commit in
// one step, removes the work trees of integrated tasks, and stops the run
// at the first task of the wave that failed, keeping its work tree.
func (r *runner) land(ctx context.Context, its []*isolated, keep []staged, base gitops.SHA, res *Result) error {
	integrated := map[*isolated]bool{}
	if len(keep) > 0 {
		tip := keep[len(keep)-1]
		trees := make([]gitops.SHA, len(keep))
		for i, s := range keep {
			trees[i] = r.recordWaveCommit(ctx, s)
		}
		if err := r.restoreLog(ctx, base); err != nil {
			return r.stopTask(ctx, keep[0].it.t, err, res)
		}
		if err := r.repo.Advance(ctx, base, tip.commit, "planx: integrate wave"); err != nil {
			return r.stopTask(ctx, keep[0].it.t, err, res)
		}
		r.fault("after-advance")
		r.expect, r.planSrc, r.dirty = tip.commit, tip.plan, nil
		for i, s := range keep {
			integrated[s.it] = true
			res.Done = append(res.Done, s.it.t.ID)
			r.out.taskDone(s.it.t, s.commit)
			r.noteGates(ctx, s.it.t, s.it.lt, s.commit, trees[i])
		}
	}
	for _, it := range its {
		if it.fail != nil && it.work != "" {
			// Failed at integration: its slot went to the next task; its
			// work is checked out again under its name for the person.
			if _, err := os.Stat(it.dir); err != nil {
				_ = freshWorktree(ctx, r.repo, it.dir, it.work)
			}
		}
		if it.work != "" {
			_ = r.repo.Refs().Delete(ctx, workRef(r.st.RunID, it.t.ID))
		}
	}
	r.st.Wave, r.st.WaveBase, r.st.WaveDone, r.st.WaveNumber = nil, "", nil, 0
	var first *isolated
	for _, it := range its {
		switch {
		case integrated[it]:
		case it.fail != nil:
			it.lt.Status, it.lt.Commit = record.TaskFailed, ""
			it.fail.what += "; its work is kept in the work tree " + r.relDir(it.dir)
			if first == nil {
				first = it
				continue // r.stop records it
			}
			it.lt.Failure = it.fail.what
			r.log.Issues = append(r.log.Issues, r.issue(it.t.ID, it.fail.what))
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
	r.dropWorktrees(its, func(it *isolated) bool { return it.fail == nil })
	if first == nil {
		return nil
	}
	r.log.Status, r.log.Finished = record.RunRunning, time.Time{}
	res.Status = record.RunFailed
	res.Next = r.nextSteps(first.t)
	return r.stop(first.t, record.RunFailed, first.fail.what, first.fail.tail, ErrTaskFailed)
}

// dropWorktrees removes the work trees of the tasks for which drop says so
// (all when drop is nil).
func (r *runner) dropWorktrees(its []*isolated, drop func(*isolated) bool) {
	for _, it := range its {
		if _, err := os.Stat(it.dir); err != nil {
			continue
		}
		if drop == nil || drop(it) {
			if err := r.repo.Worktrees().Remove(context.Background(), it.dir); err != nil {
				_ = os.RemoveAll(it.dir)
			}
		}
	}
}

// relDir names a directory under the repository relative to its root when
// it can (.git/planx/worktrees/...).
func (r *runner) relDir(dir string) string {
	if rel, err := r.repo.Rel(dir); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return dir
}

// waveNext is what to do after a stop in or after a parallel wave, or "".
func (r *runner) waveNext(t *planparse.Task) string {
	if r.st != nil && len(r.st.Wave) > 0 {
		return "the run stopped inside a parallel wave; `planx resume` integrates the tasks whose work was done, without running them again, and runs the others again"
	}
	if dir := r.keptWorktree(t); dir != "" {
		return fmt.Sprintf("the work of %s is kept in %s; fix the cause, then `planx resume` runs it again in the work tree, or `planx skip` skips it", t.ID, dir)
	}
	return ""
}

// keptWorktree is the work tree a failed task of a parallel wave left, or "".
func (r *runner) keptWorktree(t *planparse.Task) string {
	if r.st == nil || r.repo == nil {
		return ""
	}
	dir := worktreeDir(r.repo, r.st.RunID, string(t.ID))
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return r.relDir(dir)
}

// restoreLog puts the execution log in the work tree back to what commit
// base has (removing it when base has none): a stop writes the log there,
// and the commits being landed carry it whole, so the copy in the way of
// the work tree's update is planx's own and nothing is lost.
func (r *runner) restoreLog(ctx context.Context, base gitops.SHA) error {
	path := relJoin(r.repo.Root, r.log.Path)
	b, err := r.repo.History().ShowFile(ctx, base, r.log.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	case err != nil:
		return err
	}
	if cur, err := os.ReadFile(path); err == nil && string(cur) == string(b) {
		return nil
	}
	return os.WriteFile(path, b, 0o644)
}

// recordWaveCommit records a wave's task commit as one planx made (before
// the branch moves to it, so that a crash cannot leave a commit of the run
// planx has no record of) and returns its tree.
func (r *runner) recordWaveCommit(ctx context.Context, s staged) gitops.SHA {
	tree, err := r.repo.Objects().TreeOf(ctx, s.commit)
	if err == nil {
		err = r.repo.Records().AddMade(r.st.RunID, gitops.MadeCommit{Task: string(s.it.t.ID), Commit: s.commit, Tree: tree})
	}
	if err != nil {
		r.out.warn(s.it.t.ID, "could not record the commit: "+err.Error())
	}
	return tree
}

// recordWaveGates records gates that passed on commit c's tree: the tree
// each record names is the one the gates ran on (a task's own work on the
// wave's base, or the wave's combined tree), never another.
func (r *runner) recordWaveGates(ctx context.Context, t *planparse.Task, c gitops.SHA, gs []execlog.Gate) {
	tree, err := r.repo.Objects().TreeOf(ctx, c)
	if err != nil {
		return
	}
	var recs []gitops.GateRecord
	for _, g := range gs {
		if g.Passed {
			recs = append(recs, gitops.GateRecord{Tree: tree, Gate: g.Name, CommandHash: r.commandHash(t, r.gateDef(g)),
				Passed: true, DurationMS: g.Duration.Milliseconds(), Commit: c, By: "run", At: r.o.now()})
		}
	}
	if err := r.repo.Records().AddGates(recs...); err != nil {
		r.out.warn(t.ID, "could not record the gates: "+err.Error())
	}
}
