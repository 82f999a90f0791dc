package executor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
)

// taskFailure is a failed task: what failed, and the output that shows why.
type taskFailure struct {
	what   string
	tail   string
	gaveUp bool // the agent said it cannot do the task: no retry
	// hint is advice for the user ("mark it Checkpoint: yes"), shown with
	// the failure but never put into an agent's retry prompt: it would
	// invite the agent to reclassify its own task.
	hint string
}

func (f *taskFailure) Error() string { return f.what }

// forUser is the failure as the user reads it: what, then the advice.
func (f *taskFailure) forUser() string {
	if f.hint == "" {
		return f.what
	}
	return f.what + " (" + f.hint + ")"
}

// loop runs tasks in order. When resumeFirst is set the first task's work is
// already in the tree (a manual task done, or a failure fixed by hand): it is
// verified, gated and committed without executing it again.
func (r *runner) loop(ctx context.Context, tasks []*planparse.Task, resumeFirst bool) (*Result, error) {
	res := &Result{RunID: r.st.RunID, LogPath: r.log.Path, Base: string(r.st.Base)}
	for i, t := range tasks {
		last := i == len(tasks)-1
		if i > 0 {
			if err := r.checkPinned(t); err != nil {
				res.Status, res.Next = record.RunInterrupted, "look at the plan's change, then `planx resume`"
				return res, err
			}
		}
		r.out.taskStart(i+1, len(tasks), t)
		sha, err := r.runTask(ctx, t, last, resumeFirst && i == 0)
		var fail *taskFailure
		switch {
		case errors.As(err, &fail):
			res.Status, res.Next = record.RunFailed, r.nextSteps(t)
			return res, r.stop(t, record.RunFailed, fail.forUser(), fail.tail, ErrTaskFailed)
		case errors.Is(err, ErrManual):
			res.Status, res.Next = record.RunWaiting, "do the task by hand, then run `planx resume`"
			return res, r.stop(t, record.RunWaiting, "manual task: waiting for a person", "", ErrManual)
		case err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled)):
			res.Status, res.Next = record.RunInterrupted, r.nextSteps(t)
			return res, r.stop(t, record.RunInterrupted, "interrupted", "", ErrInterrupted)
		case err != nil:
			_ = r.stop(t, record.RunFailed, err.Error(), "", err)
			return res, err
		}
		res.Done = append(res.Done, t.ID)
		r.out.taskDone(t, sha)
	}
	return r.complete(ctx, res)
}

// complete closes a run whose tasks are all committed, serial or in waves.
func (r *runner) complete(ctx context.Context, res *Result) (*Result, error) {
	r.st.Status, r.st.Current = record.RunCompleted, ""
	// Every task is committed: the bookkeeping left is finished even when
	// a signal came meanwhile (it is quick, and stopping here would leave
	// a done run looking stopped).
	if err := r.repo.Index().Sync(context.WithoutCancel(ctx)); err != nil {
		return res, err
	}
	if err := clearState(r.repo); err != nil {
		return res, err
	}
	res.Status = record.RunCompleted
	r.out.runDone(r.log.Path, len(res.Done))
	return res, nil
}

// runTask executes, verifies, gates and commits one task. Each phase is
// saved before it starts, so a crash anywhere can be resumed. An agent task
// may get several attempts, each told why the previous one failed.
func (r *runner) runTask(ctx context.Context, t *planparse.Task, last, already bool) (gitops.SHA, error) {
	lt := r.logTask(t)
	lt.Status, lt.Started, lt.Failure = record.TaskRunning, r.o.now(), ""
	lt.Attempts++
	r.st.Status, r.st.Current, r.st.Reason = record.RunRunning, t.ID, ""
	if err := r.beginAttempt(ctx, t, already); err != nil {
		return "", err
	}
	kind := r.executorFor(t)
	lt.Executor = kind
	r.cheapRedo = kind == "shell"
	guard := r.repo.Config().Guard()
	r.meta = r.repo.Config().SnapshotMeta()
	r.watch = nil
	if already {
		if w := r.loadWatch(t.ID); w != nil {
			guard, r.meta, r.watch = w.Guard, w.Meta, w.Watch
		}
	}
	feedback := ""
	for attempt := 1; ; attempt++ {
		err := r.attempt(ctx, t, lt, kind, attempt, feedback, already, guard, last)
		var f *taskFailure
		if errors.As(err, &f) && kind == "agent" && attempt < r.o.Attempts && !f.gaveUp {
			is := r.issue(t.ID, fmt.Sprintf("attempt %d failed: %s", attempt, f.what))
			is.Resolution = fmt.Sprintf("retried: attempt %d of %d", attempt+1, r.o.Attempts)
			r.log.Issues = append(r.log.Issues, is)
			r.out.warn(t.ID, fmt.Sprintf("attempt %d failed: %s; trying again (%d/%d)", attempt, f.what, attempt+1, r.o.Attempts))
			feedback = f.what
			if f.tail != "" {
				feedback += "\n\n" + f.tail
			}
			lt.Attempts++
			already = false
			continue
		}
		if err != nil {
			return "", err
		}
		break
	}
	if err := r.setPhase(PhaseCommit); err != nil {
		return "", err
	}
	return r.commit(ctx, t, lt, last)
}

// attempt is one try at a task: execute (unless its work is already in the
// tree), verify, run acceptance checks and gates.
func (r *runner) attempt(ctx context.Context, t *planparse.Task, lt *execlog.Task, kind string, n int, feedback string, already bool, guard gitops.Guard, last bool) error {
	r.st.Phase = PhaseExecute
	if already {
		r.st.Phase = PhaseVerify
	}
	// The state must say which task runs before it runs. The log on disk
	// shows it too for work a person may watch for a while (an agent, a
	// manual task) and at the run's first task (so that the task's git add
	// stages the new file); a shell task's section is otherwise written when
	// it commits or stops, and after a crash resume rewrites the log from
	// the state.
	save := r.save
	if _, err := os.Stat(relJoin(r.repo.Root, r.log.Path)); err == nil && r.cheapRedo {
		save = func() error { return r.st.save(r.repo) }
	}
	// An agent's work is guarded (recordsguard.go); a shell task's steps
	// are the plan's own, shown by --dry-run and approved, and the mark's
	// wait (~3 ms) would be most of a quick step's cost.
	if !already && kind == "agent" {
		if err := r.markRecords(t); err != nil {
			return err
		}
	}
	if err := save(); err != nil {
		return err
	}
	r.fault("task-start")
	if !already {
		w, err := r.startWatch(ctx, kind)
		if err != nil {
			return err
		}
		r.watch = w
		if kind == "agent" {
			r.saveWatch(t.ID, guard)
		}
		switch kind {
		case "shell":
			err = r.runSteps(ctx, t, lt)
		case "agent":
			err = r.runAgent(ctx, t, lt, n, feedback)
		case "manual":
			return ErrManual
		case "gates":
			// Nothing to execute: verify and the gates below are the task.
		default:
			err = &taskFailure{what: fmt.Sprintf("unknown executor %q; use shell, agent or manual", kind)}
		}
		r.reapDetached(t)
		r.checkIgnored(t)
		if rerr := r.recordsUntouched(t); rerr != nil {
			return rerr // a forgery outweighs how the executor ended
		}
		if err != nil {
			return err
		}
		if err := r.setPhase(PhaseVerify); err != nil {
			return err
		}
		r.fault("after-steps")
	}
	files, err := r.verify(ctx, t, guard)
	if kind == "agent" && ctx.Err() == nil {
		// Judged: a later resume of this task is of work planx has seen.
		r.dropWatch()
	}
	var f *taskFailure
	if errors.As(err, &f) && f.tail == "" && len(lt.Commands) > 0 {
		// What the executor said next to what git shows: the claim and the evidence.
		last := lt.Commands[len(lt.Commands)-1]
		f.tail = fmt.Sprintf("(output of %s)\n%s", last.Name, last.Tail)
	}
	if err != nil {
		return err
	}
	lt.Files = files
	r.fault("after-verify")
	if err := r.setPhase(PhaseGates); err != nil {
		return err
	}
	// A checkpoint runs every gate, the final ones included.
	if err := r.runGates(ctx, t, lt, last || kind == "gates", already); err != nil {
		return err
	}
	r.fault("after-gates")
	return nil
}

// setPhase records how far the attempt got. Only agent and manual work is
// worth saving a phase for: after a crash a shell task's steps simply run
// again from a clean slate (the phase stays "execute"), which costs less than
// an fsynced state write at every phase of every task.
func (r *runner) setPhase(p string) error {
	if r.st.Phase == PhaseExecute && r.cheapRedo {
		return nil
	}
	r.st.Phase = p
	return r.st.save(r.repo)
}

// executorFor picks how a task is executed: its own Executor field, else
// shell when it has steps, else the plan's or the config's default, else the
// agent when one is configured, else a person.
func (r *runner) executorFor(t *planparse.Task) string {
	if t.Executor != "" {
		return t.Executor
	}
	if len(t.Steps) > 0 {
		return "shell"
	}
	if t.GatesOnly() {
		// "Checkpoint - Ensure all tests pass": the gates are the answer.
		return "gates"
	}
	if d := firstNonEmpty(r.plan.Executor, r.cfg.Executor); d != "" {
		return d
	}
	if r.agentSpec() != "" {
		return "agent"
	}
	return "manual"
}

// taskBudget returns the timeout for the next step given the task's start.
func (r *runner) stepTimeout(taskStart time.Time) time.Duration {
	d := r.o.StepTimeout
	if r.o.TaskTimeout > 0 {
		left := r.o.TaskTimeout - time.Since(taskStart)
		if left < time.Millisecond {
			left = time.Millisecond
		}
		if d == 0 || left < d {
			d = left
		}
	}
	return d
}

// runGates runs the task's acceptance checks and gates. reuse (the work was
// already in the tree: a resume) first looks for gates that passed on this
// very tree before; a first attempt does not pay for the lookup.
func (r *runner) runGates(ctx context.Context, t *planparse.Task, lt *execlog.Task, last, reuse bool) error {
	r.gatesPassed = false
	// Acceptance criteria written as commands are checks like gates, run
	// first: they are the task's own definition of done.
	sel := append(gates.Acceptance(t), gates.Select(r.gates, t.Gates, last)...)
	// The results are this attempt's: a resume that selects no gate must
	// not commit the gate results of the attempt before it.
	lt.Gates = lt.Gates[:0]
	if len(sel) == 0 {
		if r.executorFor(t) == "gates" {
			msg := "checkpoint with no gate to run: declare gates (front matter, .planx.yaml or --gate) for it to check anything"
			r.log.Issues = append(r.log.Issues, r.issue(t.ID, msg))
			r.out.warn(t.ID, msg)
		}
		return nil
	}
	defer r.faultSoon("during-gate", 100*time.Millisecond)()
	// Fixers (fix: true) run first, one by one, each change they make is
	// staged and recorded; the checks then judge the result. Nothing else
	// may change the tree the checks passed on (see checkSettled).
	var checks []gates.Gate
	for _, g := range sel {
		if !g.Fix {
			checks = append(checks, g)
			continue
		}
		if err := r.runGateSet(ctx, t, lt, r.repo.Root, "", []gates.Gate{g}); err != nil {
			return err
		}
		if err := r.recordFix(ctx, t, lt); err != nil {
			return err
		}
	}
	// A check that passed on this very tree before (a resume after a commit
	// hook refused) is not run again.
	var key gitops.SHA
	if reuse {
		key = r.gateKey(ctx)
	}
	cached := r.cachedGates(key, t, checks)
	var torun []gates.Gate
	for _, g := range checks {
		if rec, ok := cached[g.Name]; ok {
			lt.Gates = append(lt.Gates, cachedResult(g, t, rec))
			r.out.println("      gate %s: pass (passed on this tree before; not run again)", g.Name)
			continue
		}
		torun = append(torun, g)
	}
	dir := r.repo.Root
	if len(torun) > 0 && r.cleanGates(ctx, t) {
		wt, remove, err := r.cleanTree(ctx, t)
		if err != nil {
			return err
		}
		defer remove()
		dir = wt
	}
	if err := r.runGateSet(ctx, t, lt, dir, key, torun); err != nil {
		return err
	}
	if err := r.checkSettled(ctx, t); err != nil {
		return err
	}
	r.gatesPassed = true
	return nil
}

// runGateSet runs gates, records their results (in the log, and by tree
// when key names the tree they judge) and fails the task on the first that
// did not pass.
func (r *runner) runGateSet(ctx context.Context, t *planparse.Task, lt *execlog.Task, dir string, key gitops.SHA, sel []gates.Gate) error {
	if len(sel) == 0 {
		return nil
	}
	results, err := gates.Run(ctx, sel, gates.RunOptions{
		Dir: dir, Env: r.env(t), OutDir: runDir(r.repo, r.st.RunID), Task: t.ID,
		BlastRadius: t.BlastRadius, Live: r.out.live(), Started: r.childStarted,
	})
	r.childDone()
	if err != nil {
		return err
	}
	r.recordGated(key, t, sel, results)
	over := r.overridden()
	for _, g := range results {
		lt.Gates = append(lt.Gates, execlog.Gate{Name: g.Name, Command: g.Command, Passed: g.Passed,
			ExitCode: g.ExitCode, Duration: g.Duration, Tail: g.Tail, OutputPath: g.OutputPath,
			TimedOut: g.TimedOut, Overridden: over[g.Name]})
		r.out.gate(t.ID, g)
	}
	return gateFailure(results)
}

// logTask returns the log's entry for t, adding it on first use.
func (r *runner) logTask(t *planparse.Task) *execlog.Task {
	if lt := r.log.TaskByID(string(t.ID)); lt != nil {
		return lt
	}
	r.log.Tasks = append(r.log.Tasks, execlog.Task{ID: string(t.ID), Label: t.Label, Title: t.Title, Status: record.TaskPending})
	return &r.log.Tasks[len(r.log.Tasks)-1]
}

// save writes the execution log into the work tree and the run state under .git/planx.
func (r *runner) save() error {
	if err := r.log.WriteFile(r.repo.Root); err != nil {
		return fmt.Errorf("write execution log: %w", err)
	}
	return r.st.save(r.repo)
}

// stop records why the run stopped, in the log and the state, and returns
// the error the caller maps to an exit code.
func (r *runner) stop(t *planparse.Task, status record.RunStatus, what, tail string, kind error) error {
	now := r.o.now()
	if lt := r.log.TaskByID(string(t.ID)); lt != nil {
		lt.Status, lt.Finished = record.TaskStatus(status), now
		if status == record.RunFailed || status == record.RunInterrupted {
			lt.Failure = what
			if tail != "" {
				lt.Failure += "\n\n" + tail
			}
		}
	}
	r.log.Status = status
	r.log.Issues = append(r.log.Issues, r.issue(t.ID, what))
	r.st.Status, r.st.Current, r.st.Reason = status, t.ID, what
	if r.gatesPassed {
		// Stopped after its gates passed (a commit hook refused): a resume
		// on the same tree need not run them again.
		r.recordGatesPassed(context.Background(), t, r.log.TaskByID(string(t.ID)))
	}
	// The context may be cancelled (the stop is an interrupt): what was
	// there at the stop is recorded all the same.
	snapErr := r.recordStop(context.Background(), t.ID, string(status))
	saveErr := errors.Join(snapErr, r.save(), r.repo.Index().Sync(context.Background()))
	r.out.taskStopped(t, status, what, tail, r.nextSteps(t))
	err := fmt.Errorf("%w: %s %s: %s", kind, t.ID, t.Title, what)
	if saveErr != nil {
		return errors.Join(err, saveErr)
	}
	return err
}

func (r *runner) nextSteps(t *planparse.Task) string {
	if next := r.waveNext(t); next != "" {
		return next
	}
	return fmt.Sprintf("the changes of %s are left in the work tree; fix the cause, then `planx resume` (re-verify, re-gate, commit), or re-run the plan", t.ID)
}

// writePlan replaces the plan file's bytes, keeping its mode.
func (r *runner) writePlan(b []byte) error {
	if err := fsutil.WriteAtomic(r.planAbs, b, 0o644); err != nil {
		return err
	}
	r.planSrc = b
	return nil
}

func relJoin(root, p string) string { return filepath.Join(root, filepath.FromSlash(p)) }

func (r *runner) issue(id planparse.TaskID, what string) execlog.Issue {
	return execlog.Issue{Task: string(id), What: what, Time: r.o.now()}
}
