package drive

import (
	"context"
	"slices"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/attempt"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// waveLoop is the run's one loop: a wave of one task runs in the user's
// work tree (runTask); a wider wave (--jobs > 1) runs its tasks at once,
// each in its own linked work tree, and integrates them in plan order
// (wave). With --jobs 1 every wave is one task: serial is a run of waves
// of one. It decides which tasks form a wave and when the run stops,
// and records the results in the run's state and log.
type waveLoop struct {
	r   *runner
	res *Result // the run's result, which the waves' landings and stops fill in
	// stopped is set when the run goes on at the task it stopped at, outside
	// a wave: that task runs alone, as it did, and already says its work is
	// in the tree (loop's resumeFirst).
	stopped, already bool
	// counted are the tasks numbered ([n/total]) before run's: a resumed
	// wave's, so that the tasks after it go on counting where it left.
	counted int
}

// waves are the waves tasks run in: --jobs 1 makes each task a wave of
// its own.
func (r *runner) waves(tasks []*planparse.Task) [][]*planparse.Task {
	if r.o.Jobs > 1 {
		return r.Waves(tasks)
	}
	waves := make([][]*planparse.Task, len(tasks))
	for i := range tasks {
		waves[i] = tasks[i : i+1 : i+1]
	}
	return waves
}

// number is the wave w's number in the run: its place among the waves of
// every task the run set out to run, whatever a stop and a resume left of
// them, so that its Planx-Wave trailer is the one an uninterrupted run
// writes (a resume cuts the tasks left into waves afresh); at when w
// starts none of those waves.
func (l *waveLoop) number(w []*planparse.Task, at int) int {
	r := l.r
	all := make([]*planparse.Task, 0, len(r.st.ToRun))
	for _, id := range r.st.ToRun {
		if t := r.Task(id); t != nil {
			all = append(all, t)
		}
	}
	for i, x := range r.waves(all) {
		if x[0].ID == w[0].ID {
			return i + 1
		}
	}
	return at
}

// run runs tasks wave by wave, then completes the run.
func (l *waveLoop) run(ctx context.Context, tasks []*planparse.Task) (*Result, error) {
	r := l.r
	if l.res == nil {
		l.res = &Result{RunID: r.st.RunID, LogPath: r.log.Path, Base: string(r.st.Base)}
	}
	res := l.res
	waves := r.waves(tasks)
	if l.stopped && len(tasks) > 1 {
		waves = append([][]*planparse.Task{tasks[:1]}, r.waves(tasks[1:])...)
	}
	wavepkg.WarnCost(r.out, r.repo, r.PostCommit, waves)
	n, total := l.counted, l.counted+len(tasks)
	for wi, w := range waves {
		last := wi == len(waves)-1
		if n > 0 {
			// The run executes the plan text it started with: a person's
			// edit since stops it before the wave (pin.go).
			if err := checkPinned(r.books(), r.pf, r.Plan, r.expect, w[0]); err != nil {
				res.Status, res.Next = record.RunInterrupted, recovery.DriftNext(w[0])
				return res, err
			}
		}
		if len(w) > 1 {
			next := 0
			if !last && len(waves[wi+1]) > 1 {
				next = min(len(waves[wi+1]), max(r.o.Jobs, 1))
			}
			if err := l.wave(ctx, w, l.number(w, wi+1), last, next, &n, total); err != nil {
				return res, err
			}
			continue
		}
		t := w[0]
		n++
		r.out.TaskStart(n, total, t)
		sha, err := r.runTask(ctx, t, last, l.already && n == 1)
		if err != nil {
			return res, r.stopTask(ctx, t, err, res)
		}
		res.Done = append(res.Done, t.ID)
		r.out.TaskDone(t, sha)
	}
	return r.books().complete(ctx, res)
}

// wave runs the tasks of the wave w, the run's number-th, at once, at most
// Jobs at a time, each in its own work tree made from the branch's tip,
// then integrates them (next: the slots the next wave takes at once, made
// ready while its integration gate runs); n counts the tasks of the run
// started, of total.
func (l *waveLoop) wave(ctx context.Context, w []*planparse.Task, number int, last bool, next int, n *int, total int) error {
	r := l.r
	wv := l.newWave(r.expect, number, last)
	wv.next = next
	for _, t := range w {
		*n++
		r.out.TaskStart(*n, total, t)
	}
	r.st.Status, r.st.Current, r.st.Reason, r.st.Phase = record.RunRunning, w[0].ID, "", runstate.PhaseExecute
	r.st.Wave, r.st.WaveBase, r.st.WaveDone, r.st.WaveNumber, r.st.WaveInTheWay = wavepkg.IDs(w), wv.base, nil, wv.number, nil
	if err := waveAttempt(ctx, r.books().stops(), r.log, w[0], r.expect); err != nil {
		return err
	}
	wv.isolate(w)
	if err := r.st.Save(r.repo); err != nil {
		return err
	}
	if r.o.HandOff {
		// Saved as a wave in flight with nothing done: each task job
		// takes it from here, the landing resumes it.
		r.out.Println("planx: wave %d: %s handed off to CI jobs, one per task, from %s",
			wv.number, strings.Join(wavepkg.Names(w), " "), wv.base.Short())
		return ErrHandedOff
	}
	r.out.Println("planx: wave %d: %s at once (--jobs %d), each in its own work tree from %s",
		wv.number, strings.Join(wavepkg.Names(w), " "), max(r.o.Jobs, 1), wv.base.Short())
	return wv.fly(ctx)
}

func (l *waveLoop) newWave(base gitops.SHA, number int, last bool) *wave {
	return &wave{r: l.r, mu: &l.r.shared, base: base, number: number, last: last, res: l.res, hooks: waveHooks(l.r.st, l.r.repo, l.r.Hooks, l.r.o.NoVerify)}
}

// waveAttempt records, with s, the start of a wave task's attempt as the
// work tree holds it now (expect at the branch's tip). A wave task runs in
// a work tree of its own and leaves nothing in the user's: what resume
// --retry and skip discard of the attempt is then nothing, never the work
// of the tasks integrated before it (the wave's base is not where the
// failed task's attempt starts once the wave has landed).
func waveAttempt(ctx context.Context, s attempt.Records, log *execlog.Log, t *planparse.Task, expect gitops.SHA) error {
	ctx = context.WithoutCancel(ctx)
	changes, err := s.Repo.Status(ctx)
	if err != nil {
		return err
	}
	return s.Begin(ctx, t, false, expect, len(dirtyPaths(log, changes)) > 0)
}

// resume goes on with a run stopped (killed, interrupted) inside a
// parallel wave: tasks whose work was done in their work trees are
// integrated as they are, not run again; the others run again in fresh work
// trees; then the run goes on with the tasks after the wave.
func (l *waveLoop) resume(ctx context.Context, tasks []*planparse.Task) (*Result, error) {
	r := l.r
	var inWave, rest []*planparse.Task
	for _, t := range tasks {
		if slices.Contains(r.st.Wave, t.ID) {
			inWave = append(inWave, t)
		} else {
			rest = append(rest, t)
		}
	}
	r.o.Jobs = max(r.o.Jobs, 2)
	if len(inWave) == 0 {
		// The wave landed before the stop.
		r.st.Wave, r.st.WaveBase, r.st.WaveDone, r.st.WaveNumber, r.st.WaveInTheWay = nil, "", nil, 0, nil
		return l.run(ctx, rest)
	}
	r.out.Println("planx: resuming run %s of %s in a parallel wave (%s left)", r.st.RunID, r.st.PlanPath, textsafe.Count(len(tasks), "task"))
	// Numbered as a resume outside a wave numbers its tasks: of the tasks
	// left.
	n := 0
	l.res = &Result{RunID: r.st.RunID, LogPath: r.log.Path, Base: string(r.st.Base)}
	wv := l.newWave(r.expect, r.st.WaveNumber, len(rest) == 0)
	// Which of them had begun, read before isolate starts each entry
	// afresh: a step the log records; after a crash, which records no
	// step of a wave, every task of a wave no wider than --jobs, all
	// started at once.
	begun := map[planparse.TaskID]bool{}
	crashed := r.st.Status == record.RunRunning
	for _, t := range inWave {
		if lt := r.log.TaskByID(string(t.ID)); lt != nil && len(lt.Commands) > 0 || crashed && r.st.Options.Jobs >= len(r.st.Wave) {
			begun[t.ID] = true
		}
	}
	wv.isolate(inWave)
	for _, it := range wv.its {
		n++
		r.out.TaskStart(n, len(tasks), it.T)
		if !slices.Contains(r.st.WaveDone, it.T.ID) || !wavepkg.Recover(ctx, r.repo, r.st.RunID, it) {
			if r.landing {
				// Its task job published no work: it fails here as it
				// failed there, and nothing runs it on the landing's runner.
				it.Fail = &outcome.Failure{What: "its CI task job published no result the landing could take (the job failed, was cancelled or did not run, or its result did not hold up: see its log and the landing's)"}
			}
			// Not done, or no work kept after all: run it again, and its
			// commit says so when its stopped attempt had begun its steps,
			// as a serial task's does.
			if begun[it.T.ID] && r.st.Finished[it.T.ID] == "" {
				recovery.NoteFinished(r.st, it.T, "by running it again")
			}
			continue
		}
		r.out.Println("      %s's work, done before the stop, is integrated as it is (%s)", it.T.ID, it.Work.Short())
	}
	r.st.Status, r.st.Current, r.st.Reason, r.st.Phase = record.RunRunning, inWave[0].ID, "", runstate.PhaseExecute
	r.st.Wave, r.st.WaveBase = wavepkg.IDs(inWave), wv.base
	if err := waveAttempt(ctx, r.books().stops(), r.log, inWave[0], r.expect); err != nil {
		return nil, err
	}
	if err := r.st.Save(r.repo); err != nil {
		return nil, err
	}
	if err := wv.fly(ctx); err != nil {
		return l.res, err
	}
	l.counted = n
	return l.run(ctx, rest)
}

// waveHooks are the commit hooks of the run st's wave commits in repo
// (on: it has hooks that run), with the hooks path and identity pinned at
// run start applied in a task's work tree.
func waveHooks(st *runstate.State, repo *gitops.Repo, on, noVerify bool) wavepkg.Hooks {
	return wavepkg.Hooks{On: on, NoVerify: noVerify, Dir: runstate.RunDir(repo, st.RunID), Pinned: st.Pinned}
}

// fly runs the wave's tasks that have no work yet, then lands the wave;
// meanwhile every line about a task names it.
func (wv *wave) fly(ctx context.Context) error {
	out := wv.r.out
	out.Together(true)
	defer out.Together(false)
	wv.exec(ctx)
	return wv.integrate(ctx)
}
