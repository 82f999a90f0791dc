package executor

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/ledger"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
)

// runGates runs the task's acceptance checks and gates. reuse (the work was
// already in the tree: a resume) first looks for gates that passed on this
// very tree before; a first attempt does not pay for the lookup.
func (tu *turn) runGates(ctx context.Context, last, reuse bool) error {
	r, t, lt := tu.r, tu.t, tu.lt
	tu.gatesPassed = false
	// Acceptance criteria written as commands are checks like gates, run
	// first: they are the task's own definition of done.
	sel := append(gates.Acceptance(t), gates.Select(r.Gates, t.Gates, last)...)
	// The results are this attempt's: a resume that selects no gate must
	// not commit the gate results of the attempt before it.
	lt.Gates = lt.Gates[:0]
	if len(sel) == 0 {
		if len(tu.Outputs) > 0 {
			r.warnIssue(t, "the task left files git ignores, which the commit leaves out, and no gate judges the commit without them: "+strings.Join(tu.Outputs, ", "))
		}
		if r.Executor(t) == planparse.KindGates {
			msg := "checkpoint with no gate to run: declare gates (front matter, .planx.yaml or --gate) for it to check anything"
			r.log.Issues = append(r.log.Issues, r.issue(t.ID, msg))
			r.out.Warn(t.ID, msg)
		}
		return nil
	}
	defer r.fault.Soon("during-gate", 100*time.Millisecond)()
	// Fixers (fix: true) run first, one by one, each change they make is
	// staged and recorded; the checks then judge the result. Nothing else
	// may change the tree the checks passed on (see checkSettled).
	var checks []gates.Gate
	for _, g := range sel {
		if !g.Fix {
			checks = append(checks, g)
			continue
		}
		if err := r.runGateSet(ctx, t, lt, r.repo.Root, "", []gates.Gate{g}, nil); err != nil {
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
		key = r.book().GateKey(ctx)
	}
	cached := r.book().CachedGates(key, t, checks)
	var torun []gates.Gate
	for _, g := range checks {
		if rec, ok := cached[g.Name]; ok {
			lt.Gates = append(lt.Gates, ledger.CachedResult(g, t, rec))
			r.out.Println("      gate %s: pass (passed on this tree before; not run again)", g.Name)
			continue
		}
		torun = append(torun, g)
	}
	if err := tu.runChecks(ctx, key, torun); err != nil {
		return err
	}
	if err := r.checkSettled(ctx, t); err != nil {
		return err
	}
	tu.gatesPassed = true
	return nil
}

// runChecks runs the task's checks (runIn: in the work tree or a clean
// checkout). An agent's are judged test by test against the base commit
// where the runner can report so, or the gate's report: setting says where
// it does (gaterun.TestRuns, testjudge.go); the rest by their exit codes.
func (tu *turn) runChecks(ctx context.Context, key gitops.SHA, sel []gates.Gate) error {
	r, t := tu.r, tu.t
	if tu.kind != planparse.KindAgent {
		return tu.runIn(ctx, key, sel, nil)
	}
	tgs, _ := gaterun.TestGates(sel, runstate.RunDir(r.repo, r.st.RunID), string(t.ID))
	if len(tgs) == 0 {
		return tu.runIn(ctx, key, sel, nil)
	}
	tr := tu.testRuns()
	base, err := tr.Baseline(ctx, tgs)
	if err != nil {
		return err
	}
	run := slices.Clone(sel)
	for i, g := range run {
		if j := slices.IndexFunc(tgs, func(tg gaterun.TestGate) bool { return tg.Name == g.Name }); j >= 0 {
			run[i] = tgs[j].Gate
		}
	}
	// Test files the task did not declare are judged apart: first the
	// tests as the base has them, then (below) with the agent's own.
	var judged map[string]string
	if paths := tu.undeclaredTests(); len(paths) > 0 {
		if judged, err = tr.Apart(ctx, tgs, base, paths); err != nil {
			return err
		}
	}
	return tu.runIn(ctx, key, run, func(dir string, results []gates.Result) gaterun.Judgement {
		jd := tr.Grader.JudgeTests(dir, tgs, base, results, judged != nil)
		jd.OwnTestsPass(judged)
		return jd
	})
}

// runIn is runGateSet in the directory the task's checks run in: the work
// tree, or a clean checkout of the staged tree (cleanGates), taken once
// the baseline and the judge's runs have given theirs back, so that one
// slot serves them all. A gate that changed the checkout fails the task
// as one that changed the work tree does (checkSettled).
func (tu *turn) runIn(ctx context.Context, key gitops.SHA, sel []gates.Gate,
	judge func(dir string, results []gates.Result) gaterun.Judgement) error {
	r, t := tu.r, tu.t
	clean, links := false, false
	if len(sel) > 0 {
		clean, links = tu.cleanGates()
	}
	if !clean {
		return r.runGateSet(ctx, t, tu.lt, r.repo.Root, key, sel, judgeIn(r.repo.Root, judge))
	}
	wt, err := tu.cleanTree(ctx, links)
	if err != nil {
		return err
	}
	defer wt.release(ctx)
	if err := r.runGateSet(ctx, t, tu.lt, wt.dir, key, sel, judgeIn(wt.dir, judge)); err != nil {
		return err
	}
	return settledIn(ctx, t, wt)
}

// judgeIn is judge reading the results of gates run in dir.
func judgeIn(dir string, judge func(string, []gates.Result) gaterun.Judgement) func([]gates.Result) gaterun.Judgement {
	if judge == nil {
		return nil
	}
	return func(results []gates.Result) gaterun.Judgement { return judge(dir, results) }
}

// runGateSet runs gates in dir (gaterun.Run), records their results (in
// the log, and by tree when key names the tree they judge) and fails the
// task on the first that did not pass. judge, when set, reads the results
// test by test.
func (r *runner) runGateSet(ctx context.Context, t *planparse.Task, lt *execlog.Task, dir string, key gitops.SHA, sel []gates.Gate,
	judge func([]gates.Result) gaterun.Judgement) error {
	out, err := r.gateRun().Run(ctx, gaterun.Spec{Task: t, Dir: dir, Gates: sel, Live: true, Track: true,
		Begin: r.out.GateStart, Judge: judge,
		Record: func(results []gates.Result) { r.book().RecordGated(key, t, sel, results) }})
	if err != nil {
		return err
	}
	lt.Gates = append(lt.Gates, out.Gates...)
	return out.Failure
}

// book is the run's gate and commit records.
func (r *runner) book() ledger.Book {
	return ledger.Book{Repo: r.repo, RunID: r.st.RunID, Env: r.Config.Env, Defs: r.Gates,
		PlanRel: r.planRel, LogPath: r.log.Path, NoCache: r.o.NoCache, Now: r.o.now, Out: r.out}
}

// gateRun is what every gate run of this run shares.
func (r *runner) gateRun() gaterun.Options {
	o := gaterun.Options{Root: r.repo.Root, OutDir: runstate.RunDir(r.repo, r.st.RunID), Env: r.gateEnv(), Out: r.out,
		Started: r.pids().ChildStarted, Done: r.pids().ChildDone, Warn: r.warnIssue,
		Overridden: overridden(r.Config.Gates, r.Plan.Gates, r.o.Gates), Baseline: r.st.Baseline}
	return o
}

// overridden reports which gates a --gate flag (flags) replaced: the config
// or the plan defines one of that name. Their trailers say so (`test=pass
// 12ms overridden`), so verify can tell a gate weakened on the command line.
func overridden(configured []gates.Gate, planned []planparse.GateDecl, flags []string) map[string]bool {
	out := map[string]bool{}
	defined := map[string]bool{}
	for _, g := range configured {
		defined[g.Name] = true
	}
	for _, d := range planned {
		defined[strings.TrimSpace(d.Name)] = true
	}
	for _, f := range flags {
		if g, err := gates.ParseFlag(f); err == nil && defined[g.Name] {
			out[g.Name] = true
		}
	}
	return out
}
