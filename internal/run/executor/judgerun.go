package executor

import (
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/internal/run/verify"
)

// undeclaredTests are the test files (and test support, verify.TestSupport) the
// task changed or added without declaring them: the judge runs the tests as the base has them, so these
// go back to the base's bytes, or out when the base has none. A new test
// file can change what the code under test does (an init that swaps a
// function), so it is judged apart, as the agent's own test.
func (tu *turn) undeclaredTests() []string {
	var out, other []string
	for _, f := range tu.lt.Files {
		switch {
		case verify.AnyCovers(tu.t.Files, f):
		case judge.IsTestFile(f):
			out = append(out, f)
		default:
			other = append(other, f)
		}
	}
	// Test support (an assertion helper) is judged with the tests.
	repo, base := tu.at.where()
	return append(out, verify.TestSupport(repo, base, taskgate.GoModule(repo.Root), other)...)
}
