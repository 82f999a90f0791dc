package planparse

import (
	"strings"
	"testing"
)

// fence builds a fenced block of lines at indent ind.
func fence(ind string, lines ...string) string {
	var b strings.Builder
	b.WriteString(ind + "```sh run\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString(ind + "```\n")
	return b.String()
}

// A `sh run` fence that directly follows a checklist item's line, at column
// 0 as people write them, is that item's step (spec-kit, Kiro, planx's own
// checklist), not a fence that silently belongs to no task.
func TestFenceFollowingItemIsItsStep(t *testing.T) {
	cases := map[string]string{
		"specs/001-x/tasks.md":   "## Phase 1: Setup\n\n- [ ] T001 [P] Add a\n" + fence("", "echo a > a.txt") + "- [ ] T002 Add b\n" + fence("  ", "  echo b > b.txt"),
		".kiro/specs/x/tasks.md": "# Implementation Plan\n\n- [ ] 1. Add a\n" + fence("", "echo a > a.txt") + "\n- [ ] 2. Add b\n" + fence("  ", "  echo b > b.txt"),
		"plan.md":                "# Plan\n\n- [ ] T001 Add a\n\n" + fence("", "echo a > a.txt") + fence("", "echo a2 >> a.txt") + "- [ ] T002 Add b\n" + fence("    ", "    echo b > b.txt"),
	}
	for path, src := range cases {
		p := mustParse(t, path, src, Options{})
		if err := p.Err(); err != nil || len(p.Tasks) != 2 {
			t.Fatalf("%s: %v, %d tasks: %v", path, err, len(p.Tasks), p.Diagnostics)
		}
		a, b := p.Tasks[0], p.Tasks[1]
		if len(a.Steps) == 0 || !strings.Contains(a.Steps[0].Code, "echo a > a.txt") || a.Steps[0].Line != 5 && a.Steps[0].Line != 6 {
			t.Errorf("%s: the first task's steps %+v", path, a.Steps)
		}
		if !strings.Contains(a.Body, "echo a > a.txt") {
			t.Errorf("%s: the step is not in the task's text (its hash): %q", path, a.Body)
		}
		if len(b.Steps) != 1 || !strings.Contains(b.Steps[0].Code, "echo b > b.txt") {
			t.Errorf("%s: the second task's steps %+v", path, b.Steps)
		}
		if hasDiag(p, SeverityWarning, "no `run` step") {
			t.Errorf("%s: %v", path, p.Diagnostics)
		}
	}
	two := mustParse(t, "plan.md", "- [ ] T001 Add a\n\n"+fence("", "echo 1")+"\n"+fence("", "echo 2"), Options{})
	if len(two.Tasks[0].Steps) != 2 {
		t.Errorf("consecutive fences after an item: %+v", two.Tasks[0].Steps)
	}
}

// A `sh run` fence that follows other text after the item is not guessed at:
// the plan is refused, naming the fence's line.
func TestFenceAfterOtherTextIsRefused(t *testing.T) {
	src := "# Plan\n\n- [ ] T001 Add a\n\nSome words about it.\n\n" + fence("", "echo a > a.txt") + "- [ ] T002 Add b\n" + fence("  ", "  echo b")
	p := mustParse(t, "plan.md", src, Options{})
	if p.Err() == nil {
		t.Fatalf("accepted: %+v", p.Tasks[0].Steps)
	}
	var found bool
	for _, d := range p.Diagnostics {
		if d.Severity == SeverityError && d.Line == 7 && strings.Contains(d.Message, "belongs to no task") {
			found = true
		}
	}
	if !found {
		t.Errorf("no error at line 7: %v", p.Diagnostics)
	}
}

// A heredoc's body at column 0 inside an indented fence ends the list item,
// and with it the fence: the error names that line, not the fence.
func TestFenceBrokenByDedentedLine(t *testing.T) {
	src := "# Plan\n\n- [ ] T001 Write f\n  ```sh run\n  cat > f.txt <<EOF\nhello\nEOF\n  ```\n- [ ] T002 Add b\n" + fence("  ", "  echo b")
	p := mustParse(t, "plan.md", src, Options{})
	if p.Err() == nil {
		t.Fatal("accepted")
	}
	d := p.Diagnostics[0]
	if d.Severity != SeverityError || d.Line != 6 || !strings.Contains(d.Message, "line 6") || !strings.Contains(d.Message, "line 4") {
		t.Errorf("first diagnostic %+v; all %v", d, p.Diagnostics)
	}
	if !strings.Contains(d.Hint, "indent") {
		t.Errorf("hint %q", d.Hint)
	}
}
