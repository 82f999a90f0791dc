package planfile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/planparse"
)

const planSrc = `# Plan

- [ ] T001 First
- [ ] T002 Second
`

func open(t *testing.T, dir string) (*File, *planparse.Plan) {
	t.Helper()
	abs := filepath.Join(dir, "plan.md")
	src, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := planparse.Parse(abs, src, planparse.Options{})
	if err != nil || plan.Err() != nil {
		t.Fatal(err, plan.Err())
	}
	return New(abs, "plan.md", plan), plan
}

func read(t *testing.T, f *File) string {
	t.Helper()
	b, err := os.ReadFile(f.Abs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A tick sets one checkbox and nothing else; taking it back restores the
// bytes, unless a person changed the file since, whose bytes stay.
func TestTickAndUntick(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte(planSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	f, plan := open(t, dir)
	before := f.Src
	ticked, err := f.Tick(plan.Task("T001"))
	if err != nil || !ticked {
		t.Fatalf("Tick = %v %v", ticked, err)
	}
	want := strings.Replace(planSrc, "- [ ] T001", "- [x] T001", 1)
	if got := read(t, f); got != want || string(f.Src) != want {
		t.Fatalf("after the tick the plan is %q (Src %q), want %q", got, f.Src, want)
	}
	if !f.OnlyTicked(plan.Task("T001")) {
		t.Error("OnlyTicked is false for a plan with only planx's tick")
	}
	if kept := f.Untick(before); kept || read(t, f) != planSrc {
		t.Fatalf("Untick kept=%v, plan %q, want the bytes before the tick", kept, read(t, f))
	}
	// A person edits the plan after a tick: the tick is not taken back
	// over their bytes.
	if _, err := f.Tick(plan.Task("T002")); err != nil {
		t.Fatal(err)
	}
	edited := read(t, f) + "\nnotes\n"
	if err := os.WriteFile(f.Abs, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if f.OnlyTicked(plan.Task("T002")) {
		t.Error("OnlyTicked is true for a plan a person edited")
	}
	if kept := f.Untick(before); !kept || read(t, f) != edited {
		t.Errorf("Untick over an edit: kept=%v, plan %q, want the edit kept", kept, read(t, f))
	}
}

// Ticks are not an edit of the plan the run executes; a changed task is,
// and the report names it.
func TestEdited(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte(planSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	f, plan := open(t, dir)
	if _, err := f.Tick(plan.Task("T001")); err != nil {
		t.Fatal(err)
	}
	if report, changed, err := f.Edited(plan); err != nil || changed {
		t.Fatalf("a tick reported as an edit: %q %v %v", report, changed, err)
	}
	if err := os.WriteFile(f.Abs, []byte(strings.Replace(read(t, f), "Second", "Second, and more", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	report, changed, err := f.Edited(plan)
	if err != nil || !changed || !strings.Contains(report, "T002 changed") {
		t.Fatalf("Edited = %q %v %v, want T002 changed", report, changed, err)
	}
}

// A task is done when a commit of this plan carries its ID and the hash
// of its text as it stands; a commit whose hash no longer matches is
// stale (drift), and a commit of another plan counts for nothing.
func TestDone(t *testing.T) {
	t.Parallel()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", planSrc)
	gittest.Commit(t, dir, "plan")
	f, plan := open(t, dir)
	hash := "sha256:" + plan.Task("T001").Hash()
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "T001: first\n\nRefs: plan.md\nPlanx-Task: T001\nPlanx-Task-Hash: "+hash)
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "T002: second\n\nRefs: plan.md\nPlanx-Task: T002\nPlanx-Task-Hash: sha256:old")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "T002: other plan\n\nRefs: other.md\nPlanx-Task: T002\nPlanx-Task-Hash: sha256:"+plan.Task("T002").Hash())
	repo, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	done, stale, err := f.Done(context.Background(), repo, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !done["T001"] || done["T002"] || len(done) != 1 {
		t.Errorf("done = %v, want T001 alone", done)
	}
	if c, ok := stale["T002"]; !ok || c.Subject != "T002: second" || len(stale) != 1 {
		t.Errorf("stale = %v, want T002's commit of this plan", stale)
	}
	if body := f.BodyAt(context.Background(), repo, "HEAD", "T002"); body == "" || !strings.Contains(body, "Second") {
		t.Errorf("BodyAt HEAD T002 = %q", body)
	}
}

// Drift names the tasks added, removed and reordered since the run
// started, and a committed task whose text changed, with its diff.
func TestDrift(t *testing.T) {
	t.Parallel()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", planSrc)
	gittest.Commit(t, dir, "plan")
	_, old := open(t, dir)
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "T001: first\n\nRefs: plan.md\nPlanx-Task: T001\nPlanx-Task-Hash: sha256:"+old.Task("T001").Hash())
	gittest.WriteFile(t, dir, "plan.md", "# Plan\n\n- [x] T001 First, changed\n- [ ] T003 Third\n")
	f, plan := open(t, dir)
	repo, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cs, err := repo.History().Log(context.Background(), head.SHA, "", 1)
	if err != nil || len(cs) != 1 {
		t.Fatal(err, cs)
	}
	ds := f.Drift(context.Background(), repo, plan, []planparse.TaskID{"T001", "T002"}, map[planparse.TaskID]gitops.Commit{"T001": cs[0]})
	var got []string
	for _, d := range ds {
		got = append(got, string(d.Task)+" "+d.Kind)
		if d.Kind == "changed" && !strings.Contains(d.Diff, "+- [x] T001 First, changed") {
			t.Errorf("changed diff = %q", d.Diff)
		}
	}
	if want := "T003 added,T002 removed,T001 changed"; strings.Join(got, ",") != want {
		t.Errorf("drift = %q, want %q", strings.Join(got, ","), want)
	}
}
