package executor

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/judge"
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
func (tu *turn) judgeRun(ctx context.Context, tgs []gaterun.TestGate, base map[string]testreport.Report, paths []string) (map[string]string, error) {
	r, t := tu.r, tu.t
	staged, err := r.repo.Index().StagedCommit(ctx, r.expect)
	if err != nil {
		return nil, fmt.Errorf("the judge's tree of %s: %w", t.ID, err)
	}
	jc, err := r.repo.Objects().TreeFromBase(ctx, staged, r.expect, paths, "planx: the task's tree with the base's tests")
	if err != nil {
		return nil, fmt.Errorf("the judge's tree of %s: %w", t.ID, err)
	}
	return tu.testRuns().Apart(ctx, jc, tgs, base, paths)
}
