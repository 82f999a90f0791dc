package planfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A person's edit of the plan made while T001 runs is named (the other
// task's text and line, or other text), and Hold commits T001 with the
// plan planx knew plus its tick, then puts the edit back, ticked, keeping
// the committed text as what planx knows.
func TestHoldPersonsEdit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	abs := filepath.Join(dir, "plan.md")
	if err := os.WriteFile(abs, []byte(planSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	f, plan := open(t, dir)
	t1 := plan.Task("T001")
	if _, ok := f.Changed(t1); ok {
		t.Fatal("an untouched plan reads as changed")
	}
	edited := strings.Replace(planSrc, "T002 Second", "T002 Second, reworded", 1) + "\nA note.\n"
	if err := os.WriteFile(abs, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	ch, ok := f.Changed(t1)
	if !ok || ch.String() != "the text of T002 (plan line 4)" || !ch.Others(t1) || ch.Others(plan.Task("T002")) {
		t.Fatalf("Changed = %+v, %v", ch, ok)
	}
	f.HoldEdit()
	keep := filepath.Join(dir, "held", "plan-edit-T001")
	release, err := f.Hold(t1, keep)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, f); got != planSrc {
		t.Fatalf("held plan = %q, want the known text", got)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != edited {
		t.Fatalf("kept edit = %q, %v", b, err)
	}
	if _, err := f.Tick(t1); err != nil {
		t.Fatal(err)
	}
	committed := read(t, f)
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, f), strings.Replace(edited, "- [ ] T001", "- [x] T001", 1); got != want {
		t.Errorf("after release = %q, want %q", got, want)
	}
	if string(f.Src) != committed {
		t.Errorf("Src = %q, want the committed text %q", f.Src, committed)
	}
	if _, err := os.Stat(keep); err == nil {
		t.Error("the kept copy outlived a release that put the edit back")
	}
	// Prose only: other text, no task's.
	if err := os.WriteFile(abs, []byte(committed+"\nMore prose.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ch, ok := f.Changed(plan.Task("T002")); !ok || ch.String() != "other text of the plan" || ch.Others(t1) {
		t.Errorf("prose: Changed = %+v, %v", ch, ok)
	}
}
