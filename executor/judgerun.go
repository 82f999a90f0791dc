package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/judge"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
)

// undeclaredTests are the test files (and test support, support.go) the
// task changed or added without declaring them: the judge runs the tests as the base has them, so these
// go back to the base's bytes, or out when the base has none. A new test
// file can change what the code under test does (an init that swaps a
// function), so it is judged apart, as the agent's own test.
func (tu *turn) undeclaredTests() []string {
	var out, other []string
	for _, f := range tu.lt.Files {
		switch {
		case anyCovers(tu.t.Files, f):
		case judge.IsTestFile(f):
			out = append(out, f)
		default:
			other = append(other, f)
		}
	}
	// Test support (an assertion helper) is judged with the tests.
	return append(out, tu.testSupport(other)...)
}

// judgeRun runs tgs on the task's tree with paths as the base has them, in
// a clean checkout, and grades the run against the base. The summaries it
// returns are the task's Planx-Tests; a failing grade fails the task.
func (tu *turn) judgeRun(ctx context.Context, tgs []testGate, base map[string]testreport.Report, paths []string) (map[string]string, error) {
	r, t := tu.r, tu.t
	staged, err := r.repo.Index().StagedCommit(ctx, r.expect)
	if err != nil {
		return nil, fmt.Errorf("the judge's tree of %s: %w", t.ID, err)
	}
	jc, err := r.repo.Objects().TreeFromBase(ctx, staged, r.expect, paths, "planx: the task's tree with the base's tests")
	if err != nil {
		return nil, fmt.Errorf("the judge's tree of %s: %w", t.ID, err)
	}
	wt, err := tu.checkout(ctx, jc, "judge")
	if err != nil {
		return nil, err
	}
	defer wt.release(ctx)
	dir := runstate.RunDir(r.repo, r.st.RunID)
	run, _ := testGates(gatesOf(tgs), dir, string(t.ID)+"-judge")
	r.out.Println("      judge: %s with the base's tests (%s left as the base has them)", strings.Join(names(run), ", "), strings.Join(paths, ", "))
	results, err := gates.Run(ctx, adjusted(run), gates.RunOptions{Dir: wt.dir, Env: r.gateEnv(), OutDir: dir,
		Task: planparse.TaskID(string(t.ID) + "-judge"), BlastRadius: t.BlastRadius, Started: r.pids().ChildStarted,
		Begin: func(g gates.Gate) { r.out.Phase("gate " + textsafe.Line(g.Name) + " without the task's test files") }})
	r.pids().ChildDone()
	if err != nil {
		return nil, err
	}
	summaries := map[string]string{}
	opt := testreport.Options{Declared: tu.declaredTestGroup()}
	for i, res := range results {
		rep := run[i].read(wt.dir, res.OutputPath)
		v := testreport.Judge(base[res.Name], rep, opt)
		summaries[res.Name] = v.Summary()
		if !run[i].declared() && noReport(base[res.Name]) && noReport(rep) && res.Passed {
			summaries[res.Name] = "exit-code only (the runner gave no report, at the base either)"
			continue
		}
		if _, onlyKnown := r.knownOnly(res.Name, rep); v.OK() && (v.Now.Failed == 0 && res.Passed || onlyKnown) {
			continue
		}
		why := append(reportReasons(v, rep), failingTests(rep)...)
		if len(why) == 0 {
			why = []string{fmt.Sprintf("it exited %d", res.ExitCode)}
		}
		return nil, &outcome.Failure{
			What: fmt.Sprintf("gate %s fails with the tests as the base has them (%s not declared by the task, left as the base has them): %s",
				res.Name, strings.Join(paths, ", "), why[0]),
			Tail: strings.Join(why[1:], "\n"),
			Hint: "declare the test files the task changes (Files: Modify: …) or leave them as they were",
		}
	}
	return summaries, nil
}
