package gaterun

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/testreport"
)

// The counterfactual: a test the task turned from failing to passing is
// evidence about the task's code only if it fails again without that
// code. The judge takes the task's code change away (the files
// judge.IsCode names, put back as the base has them) and keeps everything
// else the task changed (tests, helpers, data, configuration, build
// files); a fixed test that still passes there passed because of those,
// and says nothing of the code.

// CounterfactualPaths splits the files a task changed into its code and
// the rest, and says whether a counterfactual run can tell anything: the
// task changed code and something else. Without code there is nothing to
// take away; with code alone the counterfactual is the base, where the
// fixed tests failed by definition.
func CounterfactualPaths(changed []string) (code []string, needed bool) {
	other := false
	for _, p := range changed {
		if judge.IsCode(p) {
			code = append(code, p)
		} else {
			other = true
		}
	}
	return code, len(code) > 0 && other
}

// Counterfactual runs the gates of tgs that fixed tests (fixed, by gate)
// on the task's tree (as staged) with its code paths as the base has
// them, in a clean checkout, and fails the task when a fixed test passes
// there, or when the canaries there did not come out as written.
func (tr TestRuns) Counterfactual(ctx context.Context, tgs []TestGate, fixed map[string][]string, code []string) error {
	var sel []TestGate
	for _, tg := range tgs {
		if len(fixed[tg.Name]) > 0 {
			sel = append(sel, tg)
		}
	}
	if len(sel) == 0 {
		return nil
	}
	jr, release, err := tr.runWith(ctx, sel, code, judgeRunHow{label: "counterfactual",
		tree:  "planx: the task's tree without its code change",
		say:   fmt.Sprintf("counterfactual: %%s without the task's code change (%s as the base has them)", strings.Join(code, ", ")),
		phase: "without the task's code"})
	if err != nil {
		return err
	}
	defer release()
	run, results, cn, dir := jr.run, jr.results, jr.cn, jr.dir
	for i, res := range results {
		rep := cn.Check(res.Name, run[i].Read(dir, res.OutputPath))
		if err := counterfactualVerdict(res, rep, fixed[res.Name], code); err != nil {
			return err
		}
	}
	return nil
}

// counterfactualVerdict fails the task when a fixed test passes without
// the code, or the run's canaries say its report cannot be read as
// evidence.
func counterfactualVerdict(res gates.Result, rep testreport.Report, fixed, code []string) error {
	var still []string
	for _, id := range fixed {
		if t, ok := rep.Lookup(id); ok && t.Outcome == testreport.Pass {
			still = append(still, testreport.Display(t))
		}
	}
	probs := testreport.CanaryProblems(testreport.Report{}, rep)
	if len(still) == 0 && len(probs) == 0 {
		return nil
	}
	if len(still) == 0 {
		return &outcome.Failure{What: fmt.Sprintf("gate %s without the task's code change: %s", res.Name, probs[0])}
	}
	slices.Sort(still)
	return &outcome.Failure{
		What: fmt.Sprintf("gate %s: %s passes without the task's code change too (%s as the base has them, everything else the task changed kept): a test that passes either way says nothing of the code",
			res.Name, strings.Join(still, ", "), strings.Join(code, ", ")),
		Hint: "the tests must fail at the base and pass because of the code: leave the tests' data, helpers and configuration as they were, or declare and explain the change in the plan",
	}
}
