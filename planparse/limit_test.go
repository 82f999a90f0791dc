package planparse

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// itemsPlan is a plan with a title, a paragraph and n checklist items, one
// of them in a fenced block: the item on line 5+k is the (k+1)th counted
// after the heading.
func itemsPlan(n int) string {
	var sb strings.Builder
	sb.WriteString("# Big\n\nIntro text.\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "%s- [ ] item %d\n", strings.Repeat("  ", i%3), i)
	}
	return sb.String()
}

func TestMaxItemsRefused(t *testing.T) {
	// The heading counts as one item, so item MaxItems-1 (0-based), on line
	// 5+MaxItems-1, is the (MaxItems+1)th.
	p := mustParse(t, "big.md", itemsPlan(MaxItems+5), Options{})
	var ie *InvalidError
	if err := p.Err(); !errors.As(err, &ie) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("Err() = %v, want an InvalidError", err)
	}
	if len(ie.Diagnostics) != 1 {
		t.Fatalf("diagnostics = %+v, want one", ie.Diagnostics)
	}
	d := ie.Diagnostics[0]
	if want := 5 + MaxItems - 1; d.Line != want {
		t.Errorf("line = %d, want %d", d.Line, want)
	}
	if !strings.Contains(d.Message, fmt.Sprint(MaxItems)) || !strings.Contains(d.Hint, "split the plan") {
		t.Errorf("diagnostic = %+v, want the limit and how to fix it", d)
	}
	if len(p.Tasks) != 0 {
		t.Errorf("%d tasks from a refused plan", len(p.Tasks))
	}
}

func TestMaxItemsAccepted(t *testing.T) {
	// The heading and MaxItems-1 items: exactly at the limit.
	p := mustParse(t, "edge.md", itemsPlan(MaxItems-1), Options{})
	if err := p.Err(); err != nil {
		t.Fatalf("Err() = %v", err)
	}
	if len(p.Tasks) == 0 {
		t.Fatal("no tasks from a plan at the limit")
	}
}

func TestMaxItemsJSON(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("{\n  \"tasks\": [\n")
	for i := 1; i <= MaxItems+1; i++ {
		fmt.Fprintf(&sb, "    {\"id\": %d, \"title\": \"t\"},\n", i)
	}
	sb.WriteString("    {\"id\": 0}\n  ]\n}\n")
	p := mustParse(t, "tasks.json", sb.String(), Options{})
	// Line 3 holds id 1, so id MaxItems+1 is on line MaxItems+3.
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Line != MaxItems+3 || p.Diagnostics[0].Severity != SeverityError {
		t.Fatalf("diagnostics = %+v, want one error on line %d", p.Diagnostics, MaxItems+3)
	}
	if p.Format != FormatTaskMaster {
		t.Errorf("format = %q", p.Format)
	}
}

func TestIsItemLine(t *testing.T) {
	for ln, want := range map[string]bool{
		"- a": true, "  * b": true, "> + c": true, "> > 12. d": true, "3) e": true,
		"## heading": true, "-": true, "| T1 | do |": true, "T1 | do": true, "  <task type=\"auto\">": true,
		"text": false, "": false, ">": false, "> quoted": false, "-dash": false,
		"1.5 x": false, "    ": false,
	} {
		if got := isItemLine([]byte(ln)); got != want {
			t.Errorf("isItemLine(%q) = %v, want %v", ln, got, want)
		}
	}
}

func TestCleanTitleFastPaths(t *testing.T) {
	junkRe := regexp.MustCompile(`[\s✅⚠️🎯]+$`)
	for _, s := range []string{
		"Add clamp", "Add clamp ✅", "Add clamp ⚠️ ", "Add clamp\t🎯\r", "Done", "x ✅ y ",
		"Add clamp - DONE", "Add clamp — completed **", "Add clamp (complete)", "Undone",
		"Add clamp **Complete**", "Add clamp done  * ", "naïve — done", "é",
	} {
		if got, want := trimTrailJunk(s), junkRe.ReplaceAllString(s, ""); got != want {
			t.Errorf("trimTrailJunk(%q) = %q, want %q", s, got, want)
		}
		if statusSuffixRe.MatchString(s) && !statusSuffixHint(s) {
			t.Errorf("statusSuffixHint(%q) = false, but the regexp matches", s)
		}
	}
	if got := cleanTitle("Add clamp — Completed ✅"); got != "Add clamp" {
		t.Errorf("cleanTitle = %q, want %q", got, "Add clamp")
	}
}
