package handoff

import (
	"context"
	"strings"
	"testing"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// checkRepo is a repository with a wave's base and, for T001, a work
// commit on it that changes a.txt and a result commit on the work, under
// the run's refs; commit makes more commits from its work tree.
type checkRepo struct {
	c          Carrier
	dir        string
	base, work gitops.SHA
	result     gitops.SHA
	st         *runstate.State
}

func newCheckRepo(t *testing.T) checkRepo {
	t.Helper()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", "- [ ] T001 a\n")
	base := gitops.SHA(gittest.Commit(t, dir, "base"))
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	work := gitops.SHA(gittest.Commit(t, dir, "work of T001"))
	result := gitops.SHA(gittest.Git(t, dir, "commit-tree", "-p", string(work), "-m", "result", "4b825dc642cb6eb9a060e54bf8d69288fbee4904"))
	gittest.Git(t, dir, "update-ref", WorkRef("r1", "T001"), string(work))
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	st := &runstate.State{RunID: "r1", WaveBase: base, Log: &execlog.Log{Path: "memory-bank/execute/log.md"}}
	return checkRepo{c: Carrier{Repo: repo, Remote: "origin", CI: "t"}, dir: dir, base: base, work: work, result: result, st: st}
}

func goodEntry() *execlog.Task {
	return &execlog.Task{ID: "T001", Status: record.TaskRunning, Files: []string{"a.txt"},
		Gates: []execlog.Gate{{Name: "test", Passed: true}}}
}

// Each rule of Check refuses the result that breaks it, with the reason,
// and passes the result that keeps them all.
func TestCheckHoldsAResultToItsWork(t *testing.T) {
	ctx := context.Background()
	r := newCheckRepo(t)
	ok := Claim{PlanRel: "plan.md", Task: "T001", Result: r.result, Entry: goodEntry(), Gates: []string{"test"}}
	if err := r.c.Check(ctx, r.st, ok); err != nil {
		t.Fatalf("a sound result: %v", err)
	}
	with := func(f func(*Claim)) Claim {
		cl := ok
		e := *goodEntry()
		cl.Entry = &e
		f(&cl)
		return cl
	}
	// A work commit that also changes the plan, and one that is not on the base.
	gittest.WriteFile(t, r.dir, "plan.md", "- [x] T001 a\n")
	onPlan := gittest.Commit(t, r.dir, "work that ticks the plan")
	planWork := gitops.SHA(gittest.Git(t, r.dir, "commit-tree", "-p", string(r.base), "-m", "w", onPlan+"^{tree}"))
	empty := gitops.SHA(gittest.Git(t, r.dir, "commit-tree", "-p", string(r.base), "-m", "w", string(r.base)+"^{tree}"))
	for _, c := range []struct {
		name string
		cl   Claim
		ref  gitops.SHA // the work ref, when not r.work
		want string
	}{
		{"result not on the work", with(func(c *Claim) { c.Result = r.work }), "", "the result is not on the task's work"},
		{"work not on the base", with(func(c *Claim) {}), gitops.SHA(onPlan), "is not a commit on the wave's base"},
		{"work changes nothing", with(func(c *Claim) { c.Entry.Files = nil }), empty, "changes nothing"},
		{"work changes the plan", with(func(c *Claim) { c.Entry.Files = []string{"a.txt", "plan.md"} }), planWork, "which planx writes itself"},
		{"files not as listed", with(func(c *Claim) { c.Entry.Files = []string{"a.txt", "b.txt"} }), "", "its log entry says [a.txt b.txt]"},
		{"another task's entry", with(func(c *Claim) { c.Entry.ID = "T002" }), "", "its log entry is T002's"},
		{"failed entry", with(func(c *Claim) { c.Entry.Failure = "gate test failed" }), "", "its log entry is T001's"},
		{"gate failed", with(func(c *Claim) { c.Entry.Gates[0].Passed = false }), "", "its gate test did not pass"},
		{"gate missing", with(func(c *Claim) { c.Gates = []string{"test", "lint"} }), "", "records no pass of its gate lint"},
	} {
		ref := c.ref
		if ref == "" {
			ref = r.work
		}
		gittest.Git(t, r.dir, "update-ref", WorkRef("r1", "T001"), string(ref))
		cl := c.cl
		if c.ref != "" {
			cl.Result = gitops.SHA(gittest.Git(t, r.dir, "commit-tree", "-p", string(ref), "-m", "result", "4b825dc642cb6eb9a060e54bf8d69288fbee4904"))
		}
		err := r.c.Check(ctx, r.st, cl)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}
