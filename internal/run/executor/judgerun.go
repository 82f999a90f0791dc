package executor

import (
	"path"
	"strings"

	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/planparse"
)

// baseFormTests are the test files the task changed, added or removed,
// declared or not, and the test support it did not declare
// (verify.TestSupport): the judge runs the
// tests as the base has them against the task's code, so these go back to
// the base's bytes, or out when the base has none. What a test asserted at
// the base still has to hold; a task that adds tests has them run in the
// second run, with its own tests. A new test file can change what the code
// under test does (an init that swaps a function), so it is judged apart.
// Left as the task has them: the test files the plan says the task changes
// (Changes tests:) or deletes (Delete:).
func (tu *turn) baseFormTests() []string {
	var out, other []string
	for _, f := range tu.lt.Files {
		switch {
		case judge.IsTestFile(f):
			if !tu.changesTestFile(f) {
				out = append(out, f)
			}
		case !verify.AnyCovers(tu.t.Files, f):
			other = append(other, f)
		}
	}
	// Test support (an assertion helper) the task did not declare is
	// judged with the tests: code the plan names is the task's to change.
	repo, base := tu.at.where()
	return append(out, verify.TestSupport(repo, base, taskgate.GoModule(repo.Root), other)...)
}

// changesTestFile says the plan lets the task change test file f: it
// names it under Changes tests:, or declares its deletion.
func (tu *turn) changesTestFile(f string) bool {
	for _, c := range tu.t.ChangesTests {
		if path.Clean(strings.TrimPrefix(c, "./")) == f {
			return true
		}
	}
	for _, d := range tu.t.Files {
		if d.Action == planparse.ActionDelete && verify.AnyCovers([]planparse.File{d}, f) {
			return true
		}
	}
	return false
}
