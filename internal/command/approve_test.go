package command

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

const pushPlan = "### T001: Publish\n```sh run\ngit push origin main\n```\n"

// On a terminal a HIGH plan is approved only when the person says yes; the
// answer is read from stdin and exit codes follow exit.go.
func TestApprovePrompt(t *testing.T) {
	gittest.Setenv(t)
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", pushPlan)
	main := func(in string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		stdio := &IO{In: strings.NewReader(in), Out: &out, Err: &errOut, Terminal: true}
		code := Main(context.Background(), append([]string{"planx", "approve", "-C", dir}, args...), stdio)
		return code, out.String(), errOut.String()
	}

	for _, answer := range []string{"n\n", "\n", "", "maybe\n"} {
		code, out, errOut := main(answer, "plan.md")
		if code != ExitNotApproved || !strings.Contains(out, "Approve plan.md with HIGH steps? [y/N] ") ||
			!strings.Contains(errOut, "plan not approved: plan.md: declined") {
			t.Fatalf("answer %q: exit %d\nstdout:\n%s\nstderr:\n%s", answer, code, out, errOut)
		}
	}
	if code, _, _ := main("", "--check", "plan.md"); code != ExitNotApproved {
		t.Fatalf("a declined plan was recorded: --check exit %d", code)
	}
	code, out, errOut := main("yes\n", "plan.md")
	if code != ExitOK || !strings.Contains(out, "planx: approved plan.md (HIGH, sha256 ") ||
		!strings.Contains(out, "  T001 line 3: HIGH git-push: git push publishes commits: git push origin main") {
		t.Fatalf("answer yes: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if code, _, _ := main("", "--check", "plan.md"); code != ExitOK {
		t.Fatalf("--check after approval: exit %d", code)
	}
	// --ci never asks, even on a terminal.
	if code, out, _ := main("y\n", "--ci", "plan.md"); code != ExitUsage || strings.Contains(out, "[y/N]") {
		t.Fatalf("--ci: exit %d, asked:\n%s", code, out)
	}
	// A LOW plan needs no question.
	gittest.WriteFile(t, dir, "low.md", "### T001: Hi\n```sh run\necho hi > hi.txt\n```\n")
	if code, out, _ := main("", "low.md"); code != ExitOK || strings.Contains(out, "[y/N]") {
		t.Fatalf("LOW plan: exit %d\n%s", code, out)
	}
}
