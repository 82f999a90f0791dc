package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/progress"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstate"
	wavepkg "github.com/planx-dev/planx/wave"
)

// loopWaves is loop for --jobs > 1: a wave of one task takes loop's path in
// the user's work tree; a wider wave runs its tasks at once, each in its own
// linked work tree, and integrates them in plan order (wave.run).
func (r *runner) loopWaves(ctx context.Context, tasks []*planparse.Task, res *Result) (*Result, error) {
	if res == nil {
		res = &Result{RunID: r.st.RunID, LogPath: r.log.Path, Base: string(r.st.Base)}
	}
	waves := r.Waves(tasks)
	warnParallel(r.out, r.repo, r.postCommit, waves)
	n := 0
	for wi, w := range waves {
		last := wi == len(waves)-1
		if len(w) > 1 {
			wv := &wave{r: r, number: wi + 1, last: last, res: res}
			if err := wv.run(ctx, w, &n, len(tasks)); err != nil {
				return res, err
			}
			continue
		}
		t := w[0]
		n++
		r.out.TaskStart(n, len(tasks), t)
		sha, err := r.runTask(ctx, t, last, false)
		if err != nil {
			return res, r.stopTask(ctx, t, err, res)
		}
		res.Done = append(res.Done, t.ID)
		r.out.TaskDone(t, sha)
	}
	return r.books().complete(ctx, res)
}

// stopTask stops the run at a task that did not commit, in the serial
// loop and between waves alike: what the error means (a failure with its
// hint, a manual task, an interruption, an internal error) decides the
// run's status and what the user is told to do next.
func (r *runner) stopTask(ctx context.Context, t *planparse.Task, err error, res *Result) error {
	var fail *outcome.Failure
	switch {
	case errors.As(err, &fail):
		res.Status, res.Next = record.RunFailed, nextSteps(r.st, r.repo, t)
		return r.books().stop(t, record.RunFailed, fail.ForUser(), fail.Tail, ErrTaskFailed, fail.See...)
	case errors.Is(err, ErrManual):
		res.Status, res.Next = record.RunWaiting, "do the task by hand, then run `planx resume`"
		return r.books().stop(t, record.RunWaiting, "manual task: waiting for a person", "", ErrManual)
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		res.Status, res.Next = record.RunInterrupted, interruptedNext(r.st, r.repo, t)
		return r.books().stop(t, record.RunInterrupted, interruptedWhat, "", ErrInterrupted)
	}
	_ = r.books().stop(t, record.RunFailed, err.Error(), "", err)
	return err
}

// wave is one parallel wave in flight: its tasks, each run in its own
// linked work tree from the branch's tip (execute, verify and gate: exec),
// then integrated onto the branch in plan order (integrate).
type wave struct {
	r      *runner
	its    []*isolated
	base   gitops.SHA // the branch's tip the wave's work trees start from
	number int        // the wave's number in the run, for its trailers and messages
	last   bool       // the run's last wave: its integration gate runs the final gates too
	res    *Result    // the run's result, which the wave's landing and stop fill in
	// mu serialises the workers' writes to the run's log, state and output.
	mu sync.Mutex
}

// run runs the tasks of the wave, w, at once, at most Jobs at a time, each
// in its own work tree made from the branch's tip, then integrates them;
// n counts the tasks of the run started, of total.
func (wv *wave) run(ctx context.Context, w []*planparse.Task, n *int, total int) error {
	r := wv.r
	wv.base = r.expect
	for _, t := range w {
		*n++
		r.out.TaskStart(*n, total, t)
	}
	r.st.Status, r.st.Current, r.st.Reason, r.st.Phase = record.RunRunning, w[0].ID, "", runstate.PhaseExecute
	r.st.Wave, r.st.WaveBase, r.st.WaveDone, r.st.WaveNumber = waveIDs(w), wv.base, nil, wv.number
	if err := r.waveAttempt(ctx, w[0]); err != nil {
		return err
	}
	wv.isolate(w)
	if err := r.st.Save(r.repo); err != nil {
		return err
	}
	r.out.Println("planx: wave %d: %s at once (--jobs %d), each in its own work tree from %s",
		wv.number, strings.Join(waveNames(w), " "), max(r.o.Jobs, 1), wv.base.Short())
	wv.exec(ctx)
	return wv.integrate(ctx)
}

// waveAttempt records the start of a wave task's attempt as the work tree
// holds it now. A wave task runs in a work tree of its own and leaves
// nothing in the user's: what resume --retry and skip discard of the
// attempt is then nothing, never the work of the tasks integrated before
// it (the wave's base is not where the failed task's attempt starts once
// the wave has landed).
func (r *runner) waveAttempt(ctx context.Context, t *planparse.Task) error {
	ctx = context.WithoutCancel(ctx)
	changes, err := r.repo.Status(ctx)
	if err != nil {
		return err
	}
	return r.books().stops().Begin(ctx, t, false, r.expect, len(dirtyPaths(r.log, changes)) > 0)
}

// isolate makes the log entries of w, the wave's tasks, and their
// isolated runs (wv.its).
func (wv *wave) isolate(w []*planparse.Task) {
	r := wv.r
	its := make([]*isolated, len(w))
	now := r.o.now()
	for i, t := range w {
		lt := r.books().logTask(t)
		lt.Status, lt.Started, lt.Failure, lt.Executor = record.TaskRunning, now, "", "shell"
		lt.Attempts++
		its[i] = &isolated{t: t, own: *lt, dir: wavepkg.Dir(r.repo, r.st.RunID, string(t.ID))}
		// A copy of its own down to the slices' arrays: the worker appends
		// to them while the run's log (an earlier attempt's entries) is
		// saved with the state.
		own := &its[i].own
		own.Files, own.Commands, own.Gates = slices.Clone(lt.Files), slices.Clone(lt.Commands), slices.Clone(lt.Gates)
		its[i].lt = own
	}
	wv.its = its
}

// exec runs the wave's tasks that have no work yet, at most Jobs at once
// (wave.Workers).
// Each worker writes only its own log entry (a copy): the run's log and
// state take it, under the wave's lock, when the task is done, and a task
// done is recorded (a ref to its work, and the state) before the next one
// ends, so that a crash does not lose it.
func (wv *wave) exec(ctx context.Context) {
	r := wv.r
	r.keeper().Pool()
	// Tasks done before a crash (recovered by resume) go into the log
	// before any worker starts: a worker's finished writes the log and
	// saves the state, so nothing else may touch them once one runs.
	ran := map[*isolated]bool{}
	var todo []int
	for i, it := range wv.its {
		if it.work != "" {
			*r.log.TaskByID(string(it.t.ID)) = it.own
		} else {
			ran[it] = true
			todo = append(todo, i)
		}
	}
	if err := wv.records(len(ran) > 0); err != nil {
		for _, it := range wv.its {
			it.err = err
		}
		return
	}
	wavepkg.Workers(ctx, r.o.Jobs, todo, &wv.mu,
		func(ctx context.Context, i int) { wv.runIsolated(ctx, wv.its[i]) },
		func(ctx context.Context, i int) { wv.finished(ctx, wv.its[i]) })
	if err := wv.records(false); err != nil {
		for _, it := range wv.its {
			it.err = err
		}
	}
	for _, it := range wv.its {
		it.lt = r.log.TaskByID(string(it.t.ID))
		// The task's own gates passed on its work: the base plus its
		// changes. Recorded now that no executor runs.
		if ran[it] && it.work != "" && it.fail == nil && it.err == nil {
			r.keeper().Book().RecordWaveGates(ctx, it.t, it.work, it.own.Gates)
		}
	}
	r.fault.At("after-wave")
}

// finished records one task of a wave done in its work tree. The caller
// holds the wave's lock.
func (wv *wave) finished(ctx context.Context, it *isolated) {
	r := wv.r
	*r.log.TaskByID(string(it.t.ID)) = it.own
	if it.work == "" || it.err != nil || it.fail != nil {
		return
	}
	if err := r.repo.Refs().Update(ctx, workRef(r.st.RunID, it.t.ID), it.work, "", "planx: work of "+string(it.t.ID)); err != nil {
		it.err = err
		return
	}
	r.st.WaveDone = append(r.st.WaveDone, it.t.ID)
	if err := r.st.Save(r.repo); err != nil {
		it.err = err
		return
	}
	r.fault.At("after-wave-task")
}

// workRef keeps a wave task's work, done but not yet integrated, reachable
// and findable after a crash.
func workRef(runID string, id planparse.TaskID) string {
	return record.RunRef(runID, "work/"+string(id))
}

func waveIDs(w []*planparse.Task) []planparse.TaskID {
	ids := make([]planparse.TaskID, len(w))
	for i, t := range w {
		ids[i] = t.ID
	}
	return ids
}

// dryRunWaves prints to out the waves --jobs would run.
func dryRunWaves(out io.Writer, jobs int, waves [][]*planparse.Task) {
	fmt.Fprintf(out, "\nWaves (--jobs %d; a wave of several tasks runs them at once, each in its own work tree, committed in this order):\n", jobs)
	for i, w := range waves {
		mode := "alone, in the work tree"
		if len(w) > 1 {
			mode = "parallel"
		}
		fmt.Fprintf(out, "  wave %d: %s (%s)\n", i+1, strings.Join(waveNames(w), " "), mode)
	}
}

func waveNames(w []*planparse.Task) []string {
	names := make([]string, len(w))
	for i, t := range w {
		names[i] = string(t.ID)
	}
	return names
}

// bigIndex is the index size (bytes) above which planx warns that a work
// tree per parallel task is expensive: about 10,000 tracked files. Measured
// (bench/README.md, "Parallel waves"): git worktree add takes 0.28 s at 200
// files and far longer at 20,000, where checking out every file per task
// can cost more than the parallelism saves.
const bigIndex = 1 << 20

// warnParallel says, once per run, what a parallel run cannot give in
// repo: a large index, a post-commit hook (postCommit) the waves' commits
// do not run.
func warnParallel(out *progress.Progress, repo *gitops.Repo, postCommit bool, waves [][]*planparse.Task) {
	wide := false
	for _, w := range waves {
		wide = wide || len(w) > 1
	}
	if !wide {
		return
	}
	if size := repo.Index().Size(); size > bigIndex {
		out.Warn("--jobs", fmt.Sprintf("the index is %d KiB (over %d KiB, about 10,000 files): each parallel task checks out a whole work tree, which may cost more than running the tasks in turn (--jobs 1)",
			size>>10, bigIndex>>10))
	}
	if postCommit {
		out.Warn("--jobs", "the post-commit hook does not run on the commits of parallel waves (they are made with git commit-tree; planx runs pre-commit, prepare-commit-msg and commit-msg itself); tasks that run alone get it")
	}
}
