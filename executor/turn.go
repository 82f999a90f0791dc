package executor

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/planx-dev/planx/checks"
	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/internal/sandbox"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
	"github.com/planx-dev/planx/taskgate"
	"github.com/planx-dev/planx/verify"
)

// turn is one task's go on the serial path, from its start to its commit or
// stop, retries included: what planx noted before the executor ran, to
// judge it afterwards, and what verify found that the task's commit
// carries. Its methods are the execute, verify and gate phases; the commit
// and the run's bookkeeping are the runner's.
type turn struct {
	r    *runner
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
	if !already {
		if err := tu.execute(ctx, a.n, a.feedback); err != nil {
			return err
		}
	}
	c := r.checks()
	files, err := tu.Verify(ctx, c, t, kind, r.st.RecordsMark)
	if kind == planparse.KindAgent && ctx.Err() == nil {
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
	r.fault.At("after-verify")
	if err := tu.setPhase(runstate.PhaseGates); err != nil {
		return err
	}
	// A checkpoint runs every gate, the final ones included. A gate that
	// deleted the user's ignored files (through a checkout's link to them)
	// gets them put back too.
	ignored := r.ignored // the ignored entries before the agent ran, when the turn saw it start
	if tu.Watch != nil {
		ignored = tu.Watch.Ignored
	}
	tu.gatesPassed, err = r.keeper().RunGates(ctx, taskgate.Task{T: t, Log: lt, Kind: kind, Base: r.expect, Outputs: tu.Outputs,
		Undeclared: tu.undeclaredTests, Ignored: ignored, ChangesDeps: verify.ChangesDeps(lt.Files)}, a.last || kind == planparse.KindGates, already)
	r.ignored = r.checks().CheckIgnored(t)
	if err != nil {
		return err
	}
	r.fault.At("after-gates")
	return nil
}

// execute runs the task's executor (attempt n; feedback is why the one
// before failed) under the turn's watch, then ends what it left running
// and checks that it left planx's records alone.
func (tu *turn) execute(ctx context.Context, n int, feedback string) error {
	r, t, lt, kind := tu.r, tu.t, tu.lt, tu.kind
	w, err := verify.StartWatch(ctx, r.repo, r.log.Path, kind == planparse.KindAgent)
	if err != nil {
		return err
	}
	tu.Watch = w
	tu.Rejudged, tu.Left = false, nil // a new attempt: its own work is judged
	if kind == planparse.KindAgent {
		tu.Started(r.checks(), t.ID, r.st.RecordsMark)
	}
	switch kind {
	case planparse.KindShell:
		err = execute.Steps(ctx, t, lt, r.execOptions())
	case planparse.KindAgent:
		r.keeper().Reach(ctx, r.expect) // the prompt names the scripts the gates run too
		err = execute.Agent(ctx, t, lt, execute.AgentRun{Spec: r.AgentSpec(), Attempt: n,
			Context: execute.Prompt{Plan: r.Plan, PlanPath: r.planRel, Root: r.repo.Root, Tasks: r.log.Tasks, Gates: r.Gates,
				Protected: r.checks().Rules.Guarded(r.repo.Root)}.Context(t, n, feedback)}, r.execOptions())
	case planparse.KindManual:
		return ErrManual
	case planparse.KindGates:
		// Nothing to execute: verify and the gates after it are the task.
	default:
		err = &outcome.Failure{What: fmt.Sprintf("unknown executor %q; use shell, agent or manual", kind)}
	}
	if msg := r.reaper.Detached(); msg != "" {
		r.warnIssue(t, msg)
	}
	r.ignored = r.checks().CheckIgnored(t)
	tu.NoteMark(r.st.RecordsMark)
	records := r.checks().Records
	settle := records.Untouched
	if lt.Sandbox == string(sandbox.Full) {
		settle = func(*planparse.Task) error { return records.Forget() }
	}
	if rerr := settle(t); rerr != nil {
		return rerr // a forgery outweighs how the executor ended
	}
	if err != nil {
		return err
	}
	if err := tu.setPhase(runstate.PhaseVerify); err != nil {
		return err
	}
	r.fault.At("after-steps")
	return nil
}

// setPhase records how far the attempt got. Only agent and manual work is
// worth saving a phase for: after a crash a shell task's steps simply run
// again from a clean slate (the phase stays "execute"), which costs less than
// an fsynced state write at every phase of every task.
func (tu *turn) setPhase(p string) error {
	r := tu.r
	if r.st.Phase == runstate.PhaseExecute && tu.cheapRedo {
		return nil
	}
	r.st.Phase = p
	return r.st.Save(r.repo)
}
