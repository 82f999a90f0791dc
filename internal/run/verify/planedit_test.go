package verify

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/planparse"
)

// An edit of another task's text made while T001 ran fails an agent; a
// shell task's is the person's, held out of the commit and said; in a
// slot, where nobody but the executor edits, it is left to the judge's
// protected files.
func TestPlanEdit(t *testing.T) {
	const src = "# Plan\n\n- [ ] T001 First\n- [ ] T002 Second\n"
	abs := filepath.Join(t.TempDir(), "plan.md")
	if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := planparse.Parse(abs, []byte(src), planparse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t1 := plan.Task("T001")
	d := &desk{}
	c := Tree{Rules: Rules{Plan: "plan.md"}, Plan: planfile.New(abs, "plan.md", plan), Desk: d}
	if except, err := c.planEdit(t1, planparse.KindAgent); err != nil || except != nil {
		t.Fatalf("untouched plan: %q, %v", except, err)
	}
	edited := strings.Replace(src, "T002 Second", "T002 Second, reworded", 1)
	if err := os.WriteFile(abs, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if except, err := c.planEdit(t1, planparse.KindAgent); err != nil || except != nil {
		t.Fatalf("in a slot: %q, %v; want it left to the judge", except, err)
	}
	c.PersonEdits = true
	if _, err := c.planEdit(t1, planparse.KindAgent); outcome.As(err) == nil || !strings.Contains(err.Error(), "another task's text is not the agent's to change") {
		t.Fatalf("an agent's edit of T002: %v", err)
	}
	except, err := c.planEdit(t1, planparse.KindShell)
	if err != nil || !slices.Equal(except, []string{"plan.md"}) {
		t.Fatalf("a shell task's edit: %q, %v", except, err)
	}
	if len(d.logged) != 1 || !strings.HasPrefix(d.logged[0].msg, "plan.md was edited while T001 ran (the text of T002 (plan line 4))") || len(d.said) != 1 {
		t.Errorf("logged %+v, said %q", d.logged, d.said)
	}
	// Held: the commit takes the plan as planx knew it.
	if _, err := c.Plan.Hold(t1, filepath.Join(t.TempDir(), "kept")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(abs); string(b) != src {
		t.Errorf("held plan = %q, want the text planx knew", b)
	}
}
