package executor

import (
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/runplan"
)

func TestProtection(t *testing.T) {
	r := &runner{planRel: "memory-bank/plan/x.md", Setup: &runplan.Setup{
		Gates:  []gates.Gate{{Name: "t", Command: "sh ci/test.sh"}},
		Config: gates.Config{Protect: []string{"*.golden"}, Unprotect: []string{"test/fixtures/**"}}}}
	for p, want := range map[string]string{
		"memory-bank/plan/x.md":                  "the plan",
		".planx.yaml":                            "the planx configuration",
		"sub/.gitignore":                         "an ignore file",
		"ci/test.sh":                             "named by gate t",
		"out/a.golden":                           "protected in .planx.yaml",
		"pkg/a_test.go":                          "a test file",
		"test/fixtures/data.json":                "",
		"pkg/a.go":                               "",
		"memory-bank/plan/y.md":                  "",
		"docs/testing.md":                        "",
		"src/components/Button.js":               "",
		"src/snapshots/calc__mul.snap":           "a test file", // insta
		"src/__snapshots__/Button.js.snap":       "a test file", // jest
		"web/__snapshots__/render.ambr":          "a test file", // syrupy
		"cmd/out.golden":                         "protected in .planx.yaml",
		"internal/render/expected.golden":        "protected in .planx.yaml",
		"src/ReportTest.testReport.approved.txt": "a test file", // ApprovalTests
		"src/snapshots/store.rs":                 "",
		"docs/approved-vendors.md":               "",
	} {
		if got := r.protection(p); got != want {
			t.Errorf("protection(%q) = %q, want %q", p, got, want)
		}
	}
}
