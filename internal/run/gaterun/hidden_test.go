package gaterun

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/testreport"
)

func TestHiddenVerdict(t *testing.T) {
	rep := func(failed bool, tests ...testreport.Test) testreport.Report {
		return testreport.Report{Kind: testreport.KindGoJSON, Tests: tests, Failed: failed}
	}
	visible := testreport.Test{ID: "calc TestSub", Group: "calc", Outcome: testreport.Pass}
	hidden := testreport.Test{ID: "calc TestSubHidden", Group: "calc", Outcome: testreport.Pass}
	failing := hidden
	failing.Outcome = testreport.Fail
	skipped := hidden
	skipped.Outcome = testreport.Skip
	broken := visible
	broken.Outcome = testreport.Fail
	res := gates.Result{Name: "test", OutputPath: "/run/hidden/T001-hidden-test.log"}
	for _, c := range []struct {
		name        string
		now         testreport.Report
		ran, passed int
		fails       string
	}{
		{"pass", rep(false, visible, hidden), 1, 1, ""},
		{"none ran", rep(false, visible), 0, 0, ""},
		{"a hidden test fails", rep(false, visible, failing), 1, 0, "TestSubHidden (calc) fail"},
		{"a hidden test is skipped", rep(false, visible, skipped), 1, 0, "TestSubHidden (calc) skip"},
		{"a visible test breaks", rep(false, broken, hidden), 1, 1, "TestSub (calc) (a test of the repository) does not pass with them"},
		{"the run fails outside the tests", rep(true, visible), 0, 0, "a failure outside the tests"},
	} {
		ran, passed, err := hiddenVerdict(res, rep(false, visible), c.now)
		if ran != c.ran || passed != c.passed || (err == nil) != (c.fails == "") || err != nil && !strings.Contains(err.Error(), c.fails) {
			t.Errorf("%s: %d ran, %d passed, %v", c.name, ran, passed, err)
		}
		if err != nil && strings.Contains(err.Error(), "Sub(") {
			t.Errorf("%s: the failure shows the hidden test's output: %v", c.name, err)
		}
	}
}
