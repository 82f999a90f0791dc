package drive

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/planparse"
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
	verify.Attempt
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
	t, lt, kind := tu.t, tu.lt, tu.kind
	already := a.resumed
	if err := tu.at.begin(tu, already); err != nil {
		return err
	}
	if !already {
		if err := tu.execute(ctx, a.n, a.feedback); err != nil {
			return err
		}
	}
	tu.r.out.Phase(t.ID, "verify")
	c := tu.at.checks()
	// The files the gates run are protected: read once per run, from its base.
	c.Rules.Reached = tu.r.keeper().Reach(ctx, tu.r.expect)
	files, err := tu.Verify(ctx, c, t, kind, tu.at.mark())
	if already && len(tu.Apart) > 0 {
		// The resumed attempt's start takes in the person's edits it left
		// apart, which a stop after this must not count as its work.
		if aerr := tu.r.books().stops().AdoptApart(ctx, tu.Apart, tu.Hand.At); aerr != nil {
			return aerr
		}
	}
	if kind == planparse.KindAgent && ctx.Err() == nil {
		tu.at.judged(tu, c, err)
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
	tu.at.fault().At("after-verify")
	if err := tu.setPhase(runstate.PhaseGates); err != nil {
		return err
	}
	// A checkpoint runs every gate, the final ones included. A gate that
	// deleted the user's ignored files (through a checkout's link to them)
	// gets them put back too.
	_, base := tu.at.where()
	var baseForm, undeclared []string
	if kind == planparse.KindAgent { // only an agent's tests are judged in their base form
		baseForm, undeclared = tu.baseFormTests(), tu.undeclared()
	}
	tu.gatesPassed, err = tu.at.keeper().RunGates(ctx, taskgate.Task{T: t, Log: lt, Kind: kind, Base: base, Outputs: tu.Outputs,
		Apart: tu.Apart, BaseForm: baseForm, Undeclared: undeclared, Ignored: tu.at.ignored(tu), ChangesDeps: verify.ChangesDeps(lt.Files), Fresh: tu.at.fresh(tu)},
		a.last || kind == planparse.KindGates, already)
	tu.at.putBackIgnored(t)
	if err != nil {
		return err
	}
	// The review gate reads the work the gates passed: a second agent's
	// verdict, read-only (review.go).
	if err := tu.review(ctx); err != nil {
		tu.gatesPassed = false
		return err
	}
	tu.at.fault().At("after-gates")
	return nil
}

// execute runs the task's executor (attempt n; feedback is why the one
// before failed) under the turn's watch; then its place settles what the
// executor left (place.ended).
func (tu *turn) execute(ctx context.Context, n int, feedback string) error {
	t, lt, kind, at := tu.t, tu.lt, tu.kind, tu.at
	unfurnish, bare, err := at.furnish(ctx, tu)
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
	// and what it changes of a person's edits is told against the tree
	// they were found in.
	tu.Hand.Resumed = false
	if kind == planparse.KindAgent {
		at.watched(tu)
	}
	switch kind {
	case planparse.KindShell:
		var end execute.StepsEnd
		end, err = execute.Steps(ctx, t, lt, at.execOptions())
		// In a task space the steps' change is known: what else changed
		// meanwhile is a person's.
		tu.Wrote = end.Wrote
	case planparse.KindAgent:
		err = tu.agent(ctx, n, feedback)
	case planparse.KindManual:
		return ErrManual
	case planparse.KindGates:
		// Nothing to execute: verify and the gates after it are the task.
	default:
		err = &outcome.Failure{What: fmt.Sprintf("unknown executor %q; use shell, agent or manual", kind)}
	}
	unfurnish()
	if err := at.ended(tu, err); err != nil {
		return err
	}
	if err := tu.setPhase(runstate.PhaseVerify); err != nil {
		return err
	}
	at.fault().At("after-steps")
	return nil
}

// watch starts the turn's watch (verify.StartWatch): in a bare place,
// checked out clean for the task, without walking it for what cannot be
// there.
func (tu *turn) watch(ctx context.Context, bare bool) (*verify.Watch, error) {
	repo, _ := tu.at.where()
	agent := tu.kind == planparse.KindAgent
	if bare && agent {
		return verify.StartFreshWatch(ctx, repo, tu.r.log.Path)
	}
	return verify.StartWatch(ctx, repo, tu.r.log.Path, agent)
}

// agent runs the task's agent, attempt n, told feedback. The prompt
// names the scripts the gates run too (the gates' reach).
func (tu *turn) agent(ctx context.Context, n int, feedback string) error {
	r, t, at := tu.r, tu.t, tu.at
	repo, base := at.where()
	at.keeper().Reach(ctx, base)
	var prompt execute.Prompt
	at.locked(func() {
		prompt = execute.Prompt{Plan: r.Plan, PlanPath: r.planRel, Root: repo.Root, Tasks: slices.Clone(r.log.Tasks), Gates: r.Gates,
			Protected: at.checks().Rules.Guarded(repo.Root)}
	})
	o := at.execOptions()
	o.Held = at.ignored(tu)
	if o.Budget = tu.budget(o); o.Budget != nil {
		if over, hint := o.Budget.Over(record.Cost{}); over != "" {
			return budgetSpent(over, hint)
		}
	}
	end, err := execute.Agent(ctx, t, tu.lt, execute.AgentRun{Spec: r.AgentSpec(), Attempt: n,
		Context: prompt.Context(t, n, feedback)}, o)
	tu.SpaceTip, tu.Wrote = gitops.SHA(end.Tip), end.Wrote
	at.locked(func() { tu.lt.Cost = tu.lt.Cost.Add(end.Cost) })
	return err
}

// setPhase records, where the place keeps it, how far the attempt got.
func (tu *turn) setPhase(p string) error { return tu.at.phase(tu, p) }

// newTurn starts task t's turn at p (lt: its log entry), noting what
// the executor could change in the git directory before it runs.
func (r *runner) newTurn(ctx context.Context, p place, t *planparse.Task, lt *execlog.Task) (*turn, error) {
	kind := r.Executor(t)
	lt.Executor = string(kind)
	tu := &turn{r: r, at: p, t: t, lt: lt, kind: kind, cheapRedo: kind == planparse.KindShell}
	repo, _ := p.where()
	tu.Guard = verify.GuardOf(repo, p.checks().Watched)
	tu.Meta = verify.SnapshotMeta(repo)
	replace, err := verify.ReplaceRefs(ctx, repo)
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
		if !errors.As(err, &f) || tu.kind != planparse.KindAgent || n >= r.o.Attempts || f.GaveUp || f.Budget {
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
