package drive

import (
	"context"
	"sync"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// wave is one parallel wave in flight: its tasks, each run in its own
// linked work tree from the branch's tip (execute, verify and gate: exec),
// then integrated onto the branch in plan order (integrate). Package
// wave, which holds their mechanics, is imported as wavepkg; a wave is its
// Runner: a task's turn in a slot (Turn) and the integration gate (Gate)
// are the run's.
type wave struct {
	r      *runner
	its    []*wavepkg.Task
	base   gitops.SHA // the branch's tip the wave's work trees start from
	number int        // the wave's number in the run, for its trailers and messages
	last   bool       // the run's last wave: its integration gate runs the final gates too
	next   int        // how many slots the next wave takes at once (0: none, or unknown)
	res    *Result    // the run's result, which the wave's landing and stop fill in
	hooks  wavepkg.Hooks
	// mu serialises the workers' writes to the run's log, state and
	// output: the runner's shared lock.
	mu *sync.Mutex
}

// isolate makes the log entries of w, the wave's tasks, and their
// isolated runs (wv.its).
func (wv *wave) isolate(w []*planparse.Task) {
	r := wv.r
	its := make([]*wavepkg.Task, len(w))
	now := r.o.NowUTC()
	for i, t := range w {
		lt := r.books().logTask(t)
		lt.Status, lt.Started, lt.Failure, lt.Executor = record.TaskRunning, now, "", string(r.Executor(t))
		lt.Attempts++
		its[i] = wavepkg.NewTask(t, lt, wavepkg.Dir(r.repo, r.st.RunID, string(t.ID)))
	}
	wv.its = its
}

// exec runs the wave's tasks that have no work yet (wave.Flight), each in
// its slot, recording each task done in the run's log and state under the
// wave's lock. An executor could forge planx's records (verify.Records):
// an agent, or a parallel wave's steps, runs under a mark. A wave's tasks
// run at once under one mark: planx records their gates once they have
// all ended, and a forgery, which cannot be told to one of them, fails all
// that ran.
func (wv *wave) exec(ctx context.Context) {
	r := wv.r
	// Made before the tasks start, which share them: the keeper with the
	// pool, and the files the gates reach (the judge's protected files).
	r.keeper().Reach(ctx, r.expect)
	wavepkg.Flight{Repo: r.repo, Jobs: r.o.Jobs, Tasks: wv.its, Mu: wv.mu, Fault: r.fault,
		Log: r.log, State: r.st, Settle: r.checks().Records.Settle, Book: r.keeper().Book(), Out: r.out,
		Isolated: wavepkg.Isolated{Pool: r.pool, Base: wv.base, Drop: []string{r.planRel, r.log.Path}, Hooks: wv.hooks, Runner: wv},
	}.Exec(ctx)
	if msg := r.reaper.Detached(); msg != "" && len(wv.its) > 0 {
		r.warnIssue(wv.its[0].T, msg)
	}
}
