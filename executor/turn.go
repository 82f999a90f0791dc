package executor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/planx-dev/planx/checks"
	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/sandbox"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
	"github.com/planx-dev/planx/taskgate"
	"github.com/planx-dev/planx/verify"
)

// turn is one task's go, from its start to its commit or stop, retries
// included, in its place (the user's work tree, or a wave's slot): what
// planx noted before the executor ran, to judge it afterwards, and what
// verify found that the task's commit carries. Its methods are the
// execute, verify and gate phases; the commit and the run's bookkeeping
// are the runner's (the wave's, in a slot).
type turn struct {
	r    *runner
	at   place
	t    *planparse.Task
	lt   *execlog.Task  // the task's entry in the execution log
	kind planparse.Kind // the task's executor
	// cheapRedo: the task is redone, not resumed, after a crash (a shell
	// task), so its phases are not saved.
	cheapRedo bool
	// Attempt is what the checks keep of the task between its phases.
	checks.Attempt
	// gatesPassed: the last attempt's gates all passed and its commit
	// is not made yet.
	gatesPassed bool
}

// round is one attempt at a task, as the loop asks for it.
type round struct {
	n        int    // 1 for the first
	feedback string // why the one before failed, for an agent's retry prompt
	// resumed: the work is already in the tree (a resume): it is verified
	// and gated, not executed again.
	resumed bool
	last    bool // the run's last task, which the final gates also judge
}

// try is one attempt at the task: execute (unless its work is already in the
// tree), verify, run acceptance checks and gates.
func (tu *turn) try(ctx context.Context, a round) error {
	r, t, lt, kind := tu.r, tu.t, tu.lt, tu.kind
	already := a.resumed
	if err := tu.begin(already); err != nil {
		return err
	}
	if !already {
		if err := tu.execute(ctx, a.n, a.feedback); err != nil {
			return err
		}
	}
	r.out.Phase(t.ID, "verify")
	c := tu.checks()
	files, err := tu.Verify(ctx, c, t, kind, tu.mark())
	if kind == planparse.KindAgent && ctx.Err() == nil && tu.at.wave == nil {
		tu.Judged(c, t.ID, err)
	}
	var f *outcome.Failure
	if errors.As(err, &f) && f.Tail == "" && len(lt.Commands) > 0 {
		// What the executor said next to what git shows: the claim and the evidence.
		cmd := lt.Commands[len(lt.Commands)-1]
		f.Tail = fmt.Sprintf("(output of %s)\n%s", cmd.Name, cmd.Tail)
	}
	if err != nil {
		return err
	}
	lt.Files = files
	tu.at.fault(r).At("after-verify")
	if err := tu.setPhase(runstate.PhaseGates); err != nil {
		return err
	}
	// A checkpoint runs every gate, the final ones included. A gate that
	// deleted the user's ignored files (through a checkout's link to them)
	// gets them put back too.
	// The ignored entries before the agent ran, when the turn saw it start;
	// a slot's are the user's work tree's, which furnish gave it.
	ignored := r.ignored
	if tu.Watch != nil && tu.at.wave == nil {
		ignored = tu.Watch.Ignored
	}
	tu.gatesPassed, err = tu.keeper().RunGates(ctx, taskgate.Task{T: t, Log: lt, Kind: kind, Base: tu.at.base, Outputs: tu.Outputs,
		Undeclared: tu.undeclaredTests, Ignored: ignored, ChangesDeps: verify.ChangesDeps(lt.Files), Fresh: tu.fresh()},
		a.last || kind == planparse.KindGates, already)
	tu.checkIgnored()
	if err != nil {
		return err
	}
	tu.at.fault(r).At("after-gates")
	return nil
}

// begin saves, in the work tree, which task runs and how far it is
// before it runs, and marks planx's records before an agent; in a slot the
// wave has done both for all its tasks.
func (tu *turn) begin(already bool) error {
	r, t, kind := tu.r, tu.t, tu.kind
	if tu.at.wave != nil {
		return nil
	}
	r.st.Phase = runstate.PhaseExecute
	if already {
		r.st.Phase = runstate.PhaseVerify
	}
	// The state must say which task runs before it runs. The log on disk
	// shows it too for work a person may watch for a while (an agent, a
	// manual task) and at the run's first task (so that the task's git add
	// stages the new file); a shell task's section is otherwise written when
	// it commits or stops, and after a crash resume rewrites the log from
	// the state.
	save := r.books().save
	if _, err := os.Stat(relJoin(r.repo.Root, r.log.Path)); err == nil && tu.cheapRedo {
		save = func() error { return r.st.Save(r.repo) }
	}
	// An agent's work is guarded (verify.Records); a shell task's steps
	// are the plan's own, shown by --dry-run and approved, and the mark's
	// wait (~3 ms) would be most of a quick step's cost.
	if !already && kind == planparse.KindAgent {
		if err := r.checks().Records.Mark(t); err != nil {
			return err
		}
	}
	if err := save(); err != nil {
		return err
	}
	r.fault.At("task-start")
	return nil
}

// execute runs the task's executor (attempt n; feedback is why the one
// before failed) under the turn's watch, then ends what it left running
// and checks that it left planx's records alone.
func (tu *turn) execute(ctx context.Context, n int, feedback string) error {
	r, t, lt, kind, at := tu.r, tu.t, tu.lt, tu.kind, tu.at
	unfurnish, bare, err := tu.furnish(ctx)
	if err != nil {
		return err
	}
	defer unfurnish()
	w, err := tu.watch(ctx, bare)
	if err != nil {
		return err
	}
	tu.Watch = w
	tu.Rejudged, tu.Left = false, nil // a new attempt: its own work is judged
	if kind == planparse.KindAgent && at.wave == nil {
		tu.Started(r.checks(), t.ID, r.st.RecordsMark)
	}
	switch kind {
	case planparse.KindShell:
		err = execute.Steps(ctx, t, lt, tu.execOptions())
	case planparse.KindAgent:
		err = tu.agent(ctx, n, feedback)
	case planparse.KindManual:
		return ErrManual
	case planparse.KindGates:
		// Nothing to execute: verify and the gates after it are the task.
	default:
		err = &outcome.Failure{What: fmt.Sprintf("unknown executor %q; use shell, agent or manual", kind)}
	}
	// What outlived the executor is ended here in the work tree; in a slot,
	// where it cannot be told from what the other tasks run, once the
	// wave's tasks have all ended (wave.exec).
	if at.wave == nil {
		if msg := r.reaper.Detached(); msg != "" {
			r.warnIssue(t, msg)
		}
	}
	unfurnish()
	tu.checkIgnored()
	if rerr := tu.settleRecords(); rerr != nil {
		return rerr // a forgery outweighs how the executor ended
	}
	if err == nil {
		err = tu.slotIntact()
	}
	if err != nil {
		return err
	}
	if err := tu.setPhase(runstate.PhaseVerify); err != nil {
		return err
	}
	at.fault(r).At("after-steps")
	return nil
}

// agent runs the task's agent, attempt n, told feedback. The prompt
// names the scripts the gates run too (the gates' reach).
func (tu *turn) agent(ctx context.Context, n int, feedback string) error {
	r, t, at := tu.r, tu.t, tu.at
	tu.keeper().Reach(ctx, at.base)
	var prompt execute.Prompt
	at.locked(func() {
		prompt = execute.Prompt{Plan: r.Plan, PlanPath: r.planRel, Root: at.repo.Root, Tasks: slices.Clone(r.log.Tasks), Gates: r.Gates,
			Protected: tu.checks().Rules.Guarded(at.repo.Root)}
	})
	return execute.Agent(ctx, t, tu.lt, execute.AgentRun{Spec: r.AgentSpec(), Attempt: n,
		Context: prompt.Context(t, n, feedback)}, tu.execOptions())
}

// settleRecords checks, in the work tree, that the executor left planx's
// records alone (verify.Records); a wave settles its tasks' at once.
func (tu *turn) settleRecords() error {
	r, t := tu.r, tu.t
	if tu.at.wave != nil {
		return nil
	}
	tu.NoteMark(r.st.RecordsMark)
	records := r.checks().Records
	if tu.lt.Sandbox == string(sandbox.Full) {
		return records.Forget()
	}
	return records.Untouched(t)
}

// checkIgnored puts back the user's ignored files an executor or a gate
// removed (checks.Tree.CheckIgnored); a slot has none of them.
func (tu *turn) checkIgnored() {
	if tu.at.wave == nil {
		tu.r.ignored = tu.r.checks().CheckIgnored(tu.t)
	}
}

// mark is the records' mark the executor ran under: the run state's in
// the work tree; in a slot, the wave's, which the turn leaves alone.
func (tu *turn) mark() gitops.RecordsMark {
	if tu.at.wave != nil {
		return 0
	}
	return tu.r.st.RecordsMark
}

// setPhase records how far the attempt got. Only agent and manual work is
// worth saving a phase for: after a crash a shell task's steps simply run
// again from a clean slate (the phase stays "execute"), which costs less than
// an fsynced state write at every phase of every task.
func (tu *turn) setPhase(p string) error {
	r := tu.r
	if tu.at.wave != nil || (r.st.Phase == runstate.PhaseExecute && tu.cheapRedo) {
		return nil
	}
	r.st.Phase = p
	return r.st.Save(r.repo)
}

// newTurn starts task t's turn at p (lt: its log entry), noting what
// the executor could change in the git directory before it runs.
func (r *runner) newTurn(ctx context.Context, p place, t *planparse.Task, lt *execlog.Task) (*turn, error) {
	kind := r.Executor(t)
	lt.Executor = string(kind)
	tu := &turn{r: r, at: p, t: t, lt: lt, kind: kind, cheapRedo: kind == planparse.KindShell}
	tu.Guard = p.repo.Config().Guard(tu.checks().Watched)
	tu.Meta = p.repo.Config().SnapshotMeta()
	replace, err := verify.ReplaceRefs(ctx, p.repo)
	if err != nil {
		return nil, err
	}
	tu.Replace = replace
	return tu, nil
}

// attempts tries the task until an attempt passes or it may not try
// again: an agent gets up to Attempts, each told why the one before
// failed. already: the first attempt's work is in the tree (a resume).
func (tu *turn) attempts(ctx context.Context, last, already bool) error {
	r, t := tu.r, tu.t
	feedback := ""
	for n := 1; ; n++ {
		err := tu.try(ctx, round{n: n, feedback: feedback, resumed: already, last: last})
		var f *outcome.Failure
		if !errors.As(err, &f) || tu.kind != planparse.KindAgent || n >= r.o.Attempts || f.GaveUp {
			return err
		}
		tu.at.locked(func() {
			is := r.issue(t.ID, fmt.Sprintf("attempt %d failed: %s", n, f.What))
			is.Resolution = fmt.Sprintf("retried: attempt %d of %d", n+1, r.o.Attempts)
			r.log.Issues = append(r.log.Issues, is)
			r.out.Warn(t.ID, fmt.Sprintf("attempt %d failed: %s; trying again (%d/%d)", n, f.What, n+1, r.o.Attempts))
		})
		feedback = f.What
		if f.Tail != "" {
			feedback += "\n\n" + f.Tail
		}
		tu.lt.Attempts++
		already = false
	}
}
