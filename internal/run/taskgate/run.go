package taskgate

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/canary"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// Task is one attempt's gates as the task's turn hands them over: the
// task, its log entry (which takes the results), its executor and the
// turn's own seams.
type Task struct {
	T    *planparse.Task
	Log  *execlog.Task
	Kind planparse.Kind
	// Base is the commit the task started from (where HEAD must be).
	Base gitops.SHA
	// Outputs are the ignored files the agent left, which the commit
	// leaves out.
	Outputs []string
	// BaseForm are the test files (and their support) an agent task
	// changed, which the judge's first run puts back as the base has
	// them: the agent's own versions are judged apart.
	BaseForm []string
	// Undeclared are the files an agent task changed that its plan does
	// not declare: a make gate's run apart puts back those make reads.
	Undeclared []string
	// Ignored are the work tree's ignored entries before the agent ran,
	// linked into the task's clean checkouts (checkoutFor).
	Ignored []string
	// ChangesDeps: the task changed a dependency manifest (freshDeps).
	ChangesDeps bool
	// Apart are a person's edits the task's staging left out
	// (verify.Attempt.Apart): they stay unstaged, and the gates judge the
	// staged tree without them, in a clean checkout.
	Apart []string
	// Fresh: the work tree holds exactly the staged tree, nothing else
	// (a slot checked out clean for the task, which left no untracked or
	// ignored file beside its work): its gates' clean checkout would be
	// the same, so they run there (inPlace).
	Fresh bool
}

// RunGates runs the task's acceptance checks and gates; passed says all
// ran and passed (none selected is not passed). reuse (the work was
// already in the tree: a resume) first looks for gates that passed on this
// very tree before; a first attempt does not pay for the lookup.
func (k *Keeper) RunGates(ctx context.Context, tk Task, last, reuse bool) (passed bool, err error) {
	t, lt := tk.T, tk.Log
	// Acceptance criteria written as commands are checks like gates, run
	// first: they are the task's own definition of done.
	sel := append(gates.Acceptance(t), gates.Select(k.Gates, t.Gates, last)...)
	// The results are this attempt's: a resume that selects no gate must
	// not commit the gate results of the attempt before it.
	lt.Gates, lt.Hidden = lt.Gates[:0], nil
	if len(sel) == 0 {
		if len(tk.Outputs) > 0 {
			hall.Warn(k.Desk, t.ID, "the task left files git ignores, which the commit leaves out, and no gate judges the commit without them: "+strings.Join(tk.Outputs, ", "))
		}
		if tk.Kind == planparse.KindGates {
			msg := "checkpoint with no gate to run: declare gates (front matter, .planx.yaml or --gate) for it to check anything"
			k.Desk.Issue(t.ID, msg, "")
			k.Out.Warn(t.ID, msg)
		}
		return false, nil
	}
	defer k.Fault.Soon("during-gate", 100*time.Millisecond)()
	// Fixers (fix: true) run first, one by one, each change they make is
	// staged and recorded; the checks then judge the result. Nothing else
	// may change the tree the checks passed on (see checkSettled).
	var checks []gates.Gate
	for _, g := range sel {
		if !g.Fix {
			checks = append(checks, g)
			continue
		}
		if err := k.runGateSet(ctx, t, lt, k.Repo.Root, "", []gates.Gate{g}, nil); err != nil { // a fixer is no test
			return false, err
		}
		if err := k.recordFix(ctx, t, lt, tk.Apart...); err != nil {
			return false, err
		}
	}
	// A check that passed on this very tree before (a resume after a commit
	// hook refused) is not run again.
	var key gitops.SHA
	if reuse {
		key = k.Book().GateKey(ctx)
	}
	cached := k.Book().CachedGates(key, t, checks)
	var torun []gates.Gate
	for _, g := range checks {
		if rec, ok := cached[g.Name]; ok {
			lt.Gates = append(lt.Gates, ledger.CachedResult(g, t, rec))
			k.Out.Println("      gate %s: pass (passed on this tree before; not run again)", g.Name)
			continue
		}
		torun = append(torun, g)
	}
	if err := k.runChecks(ctx, tk, key, torun); err != nil {
		return false, onBaseToo(ctx, k, tk, torun, err)
	}
	settled := func(ctx context.Context, t *planparse.Task) error { return k.checkSettled(ctx, t, tk.Apart...) }
	if here, _ := k.inPlace(tk); here {
		settled = k.settledHere
	}
	if err := settled(ctx, t); err != nil {
		return false, err
	}
	return true, nil
}

// runChecks runs the task's checks (runIn: in the work tree or a clean
// checkout). An agent's are judged test by test against the base commit
// where the runner can report so, or the gate's report: setting says where
// it does (gaterun.TestRuns, testjudge.go); the rest by their exit codes.
func (k *Keeper) runChecks(ctx context.Context, tk Task, key gitops.SHA, sel []gates.Gate) error {
	if tk.Kind != planparse.KindAgent {
		return k.runIn(ctx, tk, key, sel, nil)
	}
	tgs, _ := gaterun.TestGates(sel, k.dir(), string(tk.T.ID))
	tr := k.testRuns(tk)
	if len(tgs) == 0 {
		if err := k.runIn(ctx, tk, key, sel, nil); err != nil {
			return err
		}
		if k.HiddenTests != "" {
			return &outcome.Failure{What: "hidden tests: no gate of this task is a test command planx reads test by test, so the hidden tests cannot be told apart and counted",
				Hint: "add a gate such as go test ./..., pytest or node --test, or one with report: (docs/judge.md)"}
		}
		return tr.ExitCodesApart(ctx, exitCodeOnly(sel, tgs), testFiles(tk.BaseForm), tk.Undeclared)
	}
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
	// The tests in their base form are judged apart: first the tests as
	// the base has them, then (below) with the agent's own.
	baseForm := tk.BaseForm
	var judged map[string]string
	if len(baseForm) > 0 {
		if judged, err = tr.Apart(ctx, tgs, base, baseForm); err != nil {
			return err
		}
	}
	var last gaterun.Judgement
	err = k.runIn(ctx, tk, key, run, &tested{tgs: tgs, canaries: canary.New(tk.Log.Files).Named(base),
		grade: &gaterun.Grading{Grader: tr.Grader, Base: base, Apart: judged}, last: &last})
	if err != nil {
		return err
	}
	// The tests the task fixed must fail again without its code.
	if code, needed := gaterun.CounterfactualPaths(tk.Log.Files); needed && len(last.Fixed()) > 0 {
		if err := tr.Counterfactual(ctx, tgs, last.Fixed(), code); err != nil {
			return err
		}
	}
	if err := tr.ExitCodesApart(ctx, exitCodeOnly(sel, tgs), testFiles(baseForm), tk.Undeclared); err != nil {
		return err
	}
	return hidden(ctx, tk, tr, tgs, gaterun.HiddenRun{Dir: k.HiddenTests, Ref: k.HiddenRef, Out: filepath.Join(k.dir(), "hidden")})
}

// hidden runs the task's test gates once more with the hidden tests of h
// (hidden_tests:; none when h.Dir is "") added, in a clean checkout,
// graded against their run on the same tree without them; the commit says
// how many ran and passed.
func hidden(ctx context.Context, tk Task, tr gaterun.TestRuns, tgs []gaterun.TestGate, h gaterun.HiddenRun) error {
	if h.Dir == "" {
		return nil
	}
	sums, err := tr.Hidden(ctx, tgs, h)
	if err != nil {
		return err
	}
	tk.Log.Hidden = tk.Log.Hidden[:0]
	for _, tg := range tgs {
		if s, ok := sums[tg.Name]; ok {
			tk.Log.Hidden = append(tk.Log.Hidden, s)
		}
	}
	return nil
}

// testFiles are the test files among paths: what a gate read by its exit
// code alone runs with as the base has them. Not the data or scripts the
// task left undeclared: such a gate often checks the task's output itself
// (a file made, a script that runs), which a test reads only in its own
// test files. A make gate's makefiles among them are found by asking make
// (ExitCodesApart, from Task.Undeclared).
func testFiles(paths []string) []string {
	var out []string
	for _, p := range paths {
		if judge.IsTestFile(p) {
			out = append(out, p)
		}
	}
	return out
}

// exitCodeOnly are the gates of sel that are not test gates read test by
// test (tgs): judged by their exit codes.
func exitCodeOnly(sel []gates.Gate, tgs []gaterun.TestGate) []gates.Gate {
	var out []gates.Gate
	for _, g := range sel {
		if !slices.ContainsFunc(tgs, func(tg gaterun.TestGate) bool { return tg.Name == g.Name }) {
			out = append(out, g)
		}
	}
	return out
}

// tested is how a gate set is read test by test: its test gates, their
// canaries, planted where they run (never in the user's work tree), and
// their grading; last takes what the grading read of the run.
type tested struct {
	tgs      []gaterun.TestGate
	canaries *canary.Set
	grade    *gaterun.Grading
	last     *gaterun.Judgement
}

// runIn is runGateSet in the directory the task's checks run in: the work
// tree, or a clean checkout of the staged tree (cleanGates), taken once
// the baseline and the judge's runs have given theirs back, so that one
// slot serves them all. A gate that changed the checkout fails the task
// as one that changed the work tree does (checkSettled).
func (k *Keeper) runIn(ctx context.Context, tk Task, key gitops.SHA, sel []gates.Gate, judge *tested) error {
	t := tk.T
	clean, links := false, false
	if len(sel) > 0 {
		clean, links = cleanGates(k.GatesIn, tk.Kind)
	}
	if len(sel) > 0 && len(tk.Apart) > 0 && !clean {
		// A person's edits stay in the work tree, not the task's: the
		// gates judge the task's tree, a checkout of what is staged, with
		// the work tree's ignored entries as the work tree has them.
		clean, links = true, true
	}
	if here, links := k.inPlace(tk); here && clean {
		return k.runHere(ctx, tk, key, sel, links, judge)
	}
	if !clean {
		return k.runGateSet(ctx, t, tk.Log, k.Repo.Root, key, sel, judge.inWorkTree())
	}
	wt, err := k.cleanTree(ctx, tk, links)
	if err != nil {
		return err
	}
	defer wt.Release(ctx)
	if err := k.runGateSet(ctx, t, tk.Log, wt.dir, key, sel, judge); err != nil {
		return err
	}
	return settledIn(ctx, t, wt)
}

// inWorkTree is the judge for gates that run in the user's work tree:
// nothing is planted there, so the judge reads the runs without canaries.
// What it reads is j's.
func (j *tested) inWorkTree() *tested {
	if j == nil {
		return nil
	}
	return &tested{tgs: j.tgs, grade: j.grade, last: j.last}
}

// runGateSet runs gates in dir (gaterun.Run), records their results (in
// the log, and by tree when key names the tree they judge) and fails the
// task on the first that did not pass. judge, when set, reads the results
// test by test.
func (k *Keeper) runGateSet(ctx context.Context, t *planparse.Task, lt *execlog.Task, dir string, key gitops.SHA, sel []gates.Gate,
	judge *tested) error {
	spec := gaterun.Spec{Task: t, Dir: dir, Gates: sel, Live: true, Track: true,
		Begin: k.Out.GateStart(t.ID)}
	if judge != nil {
		spec.Grade, spec.Canaries, spec.TestGates = judge.grade, judge.canaries, judge.tgs
	}
	if k.slot {
		// Beside other tasks: no pid file; the gate's start is its line
		// of the board.
		spec.Track = false
	}
	out, err := k.GateRun().Run(ctx, spec)
	if err != nil {
		return err
	}
	if !k.slot {
		// A slot records nothing while the wave's records are marked.
		k.Book().RecordGated(key, t, sel, out.Exited)
	}
	if judge != nil && judge.last != nil {
		*judge.last = out.Judged
	}
	lt.Gates = append(lt.Gates, out.Gates...)
	return out.Failure
}
