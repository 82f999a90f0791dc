package agent

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/planparse"
)

func TestParseVerdict(t *testing.T) {
	for _, c := range []struct {
		name, out string
		pass      bool
		findings  int
		problem   string
	}{
		{"pass", "Looked at calc.go.\n\nVERDICT: pass\n", true, 0, ""},
		{"fail with findings", "FINDING: Sub returns 2 for any input\n- FINDING: the test was weakened\nVERDICT: fail\n", false, 2, ""},
		{"markdown", "All good.\n\n**VERDICT: PASS**\n\n", true, 0, ""},
		{"pass with findings", "FINDING: a comment is stale\nverdict: pass", true, 1, ""},
		{"no verdict", "The change looks right to me.\n", false, 0, "does not end in a verdict line"},
		{"verdict not last", "VERDICT: pass\nbut wait, Sub is wrong\n", false, 0, "does not end in a verdict line"},
		{"another word", "VERDICT: maybe\n", false, 0, `"maybe" is neither pass nor fail`},
		{"empty", "", false, 0, "does not end in a verdict line"},
	} {
		v := ParseVerdict(c.out)
		if v.Pass != c.pass || len(v.Findings) != c.findings || (c.problem == "") != (v.Problem == "") || !strings.Contains(v.Problem, c.problem) {
			t.Errorf("%s: %+v", c.name, v)
		}
	}
}

func TestReviewPrompt(t *testing.T) {
	task := &planparse.Task{ID: "T001", Title: "Implement Sub", Body: "Sub subtracts.\n", Acceptance: []string{"`go run ./cmd/sub 9 4`"}}
	p := ReviewPrompt(task, "plan.md", "/repo", "diff --git a/calc.go b/calc.go\n+func Sub")
	for _, want := range []string{"# Task T001: Implement Sub", "Sub subtracts.", "`go run ./cmd/sub 9 4`", "+func Sub",
		"`VERDICT: pass`", "`FINDING:`", "Do not change any file"} {
		if !strings.Contains(p, want) {
			t.Errorf("the review prompt lacks %q:\n%s", want, p)
		}
	}
}

func TestIdentity(t *testing.T) {
	t.Setenv("ANTHROPIC_MODEL", "claude-x")
	for _, c := range [][3]string{
		{"claude", "", "claude/claude-x"},
		{"claude", "opus", "claude/opus"},
		{"codex", "", "codex/default"},
		{"sh  review.sh", "", "sh review.sh/default"},
	} {
		if got := Identity(c[0], c[1]); got != c[2] {
			t.Errorf("Identity(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
