package verify

import (
	"testing"

	"github.com/planx-dev/planx/gates"
)

func TestRules(t *testing.T) {
	r := Rules{Plan: "memory-bank/plan/x.md", Log: "memory-bank/runs/x/log.md",
		Gates:   []gates.Gate{{Name: "t", Command: "sh ci/test.sh"}},
		Protect: []string{"*.golden"}, Unprotect: []string{"test/fixtures/**"}}
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
		"memory-bank/runs/x/log.md":              "the execution log",
		"memory-bank/runs/x/notes.md":            "the execution log",
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
		if got := r.Why(p); got != want {
			t.Errorf("Why(%q) = %q, want %q", p, got, want)
		}
	}
}
