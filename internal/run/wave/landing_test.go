package wave

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// landingSrc is the plan of landingOn: a group of two tasks, then two.
const landingSrc = "# Plan\n\n- [ ] 1. Group\n  - [ ] 1.1 One\n  - [ ] 1.2 Two\n- [ ] 2. Three\n- [ ] 3. Four\n"

// landingOn is a landing of chainRepo's four tasks' work as the plan's
// four leaves (the third conflicts with the first); T9 was skipped before.
func landingOn(t *testing.T) *Landing {
	repo, base, works := chainRepo(t)
	plan, err := planparse.Parse("plan.md", []byte(landingSrc), planparse.Options{})
	if err != nil || plan.Err() != nil {
		t.Fatal(err, plan.Err())
	}
	l := &Landing{Repo: repo, Pool: NewPool(repo), Base: base, Number: 2,
		Plan: []byte(landingSrc), PlanRel: "plan.md", Parsed: plan,
		Log: &execlog.Log{Path: "log.md"}, State: &runstate.State{RunID: "run1", SkipPending: []planparse.TaskID{"T9"}},
		Done: map[planparse.TaskID]bool{},
		Book: ledger.Book{Repo: repo, RunID: "run1", Now: time.Now}, Desk: &desk{},
	}
	var leaves []*planparse.Task
	for _, pt := range plan.Tasks {
		if len(pt.Children) == 0 {
			leaves = append(leaves, pt)
			l.Log.Tasks = append(l.Log.Tasks, execlog.Task{ID: string(pt.ID), Status: "running"})
		}
	}
	for i, w := range works {
		l.Tasks = append(l.Tasks, &Task{T: leaves[i], Log: &l.Log.Tasks[i], Work: w.Commit, Dir: t.TempDir() + "/gone"})
	}
	return l
}

// done lists the ids l.Done holds, sorted.
func (l *Landing) done() []planparse.TaskID {
	var ids []planparse.TaskID
	for id, ok := range l.Done {
		if ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

func TestLandingLandsInPlanOrderAndKeepsTheConflict(t *testing.T) {
	t.Parallel()
	l := landingOn(t)
	ctx := context.Background()
	ld, at, err := l.Run(ctx)
	if err != nil || at != nil {
		t.Fatalf("Run: %v at %v", err, at)
	}
	if len(ld.Tasks) != 3 || ld.Tasks[0] != l.Tasks[0] || ld.Tasks[1] != l.Tasks[1] || ld.Tasks[2] != l.Tasks[3] {
		t.Fatalf("landed %d tasks, want 1.1 1.2 3", len(ld.Tasks))
	}
	if l.Tasks[2].Fail == nil || !strings.Contains(l.Tasks[2].Fail.What, "conflict") {
		t.Errorf("2's failure = %v, want a conflict", l.Tasks[2].Fail)
	}
	// 1.2's commit completes the group after 1.1's: both, and the group,
	// are done for the tasks after them, as 3 is; 2 is not staged.
	group := l.Parsed.Tasks[0]
	want := []planparse.TaskID{group.ID, l.Tasks[0].T.ID, l.Tasks[1].T.ID, l.Tasks[3].T.ID}
	if slices.Sort(want); !slices.Equal(l.done(), want) || !slices.Equal(l.Tasks[1].Groups, []*planparse.Task{group}) {
		t.Errorf("done %v, 1.2's groups %v; want %v with the group 1.2's", l.done(), l.Tasks[1].Groups, want)
	}
	head := gittest.Git(t, l.Repo.Root, "rev-parse", "HEAD")
	if head != string(ld.Tip()) {
		t.Errorf("HEAD %s, want the tip %s", head, ld.Tip())
	}
	msg := gittest.Git(t, l.Repo.Root, "log", "-1", "--format=%B")
	if !strings.HasPrefix(msg, string(l.Tasks[3].T.ID)+": Four\n") || !strings.Contains(msg, "Planx-Wave: 2 "+string(l.Base)) ||
		!strings.Contains(msg, "Planx-Run: run1") || strings.Contains(msg, "T9") {
		t.Errorf("tip's message:\n%s", msg)
	}
	// The first commit records the skip, once.
	if first := gittest.Git(t, l.Repo.Root, "log", "-1", "--format=%B", "HEAD~2"); !strings.Contains(first, "Planx-Skipped: T9") || l.State.SkipPending != nil {
		t.Errorf("first message (pending skips now %v):\n%s", l.State.SkipPending, first)
	}
	plan := gittest.Git(t, l.Repo.Root, "show", "HEAD:plan.md")
	for line, ticked := range map[string]bool{"1. Group": true, "1.1 One": true, "1.2 Two": true, "2. Three": false, "3. Four": true} {
		if strings.Contains(plan, "[x] "+line) != ticked {
			t.Errorf("tip's plan ticks %q: %v, want %v:\n%s", line, !ticked, ticked, plan)
		}
	}
	// Each commit carries the log with its task done.
	if log := gittest.Git(t, l.Repo.Root, "show", "HEAD:log.md"); l.Tasks[3].Log.Status != "done" || !strings.Contains(log, "Four") && !strings.Contains(log, string(l.Tasks[3].T.ID)) {
		t.Errorf("3's entry %q; the tip's log:\n%s", l.Tasks[3].Log.Status, log)
	}
	if string(ld.Plan) != gittest.Git(t, l.Repo.Root, "show", "HEAD:plan.md")+"\n" {
		t.Errorf("landed plan %q is not the tip's", ld.Plan)
	}
	if l.Tasks[3].Log.Commit != string(ld.Tip()) {
		t.Errorf("T004's log entry names %s, want the tip", l.Tasks[3].Log.Commit)
	}
}

func TestLandingGateKeepsTheChainBeforeTheBreakingTaskAndSeals(t *testing.T) {
	t.Parallel()
	l := landingOn(t)
	l.Tasks = l.Tasks[:2] // 1.1, 1.2
	fake := &turns{breaks: l.Tasks[1].T.ID}
	l.Gated, l.Runner = true, fake
	ld, _, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Tasks) != 1 || ld.Tasks[0] != l.Tasks[0] {
		t.Fatalf("landed %d tasks, want 1.1 alone", len(ld.Tasks))
	}
	if f := l.Tasks[1].Fail; f == nil || !strings.Contains(f.What, "integration gate") {
		t.Errorf("1.2's failure = %v, want the integration gate's", f)
	}
	one, two := l.Tasks[0].T.ID, l.Tasks[1].T.ID
	if held := fake.held; !slices.Equal(held["wave2-"+two], []planparse.TaskID{one, two}) || !slices.Equal(held["wave2-"+one], []planparse.TaskID{one}) {
		t.Errorf("the checks' trees hold %v, want 1.1 and 1.2 at the tip, 1.1 before", held)
	}
	// The gates passed on T001's combined tree are recorded for it, and
	// the commit landed as one planx made.
	ctx := context.Background()
	tree, err := l.Repo.Objects().TreeOf(ctx, ld.Tip())
	if err != nil {
		t.Fatal(err)
	}
	if recs, err := records.Of(l.Repo).Gates(tree); err != nil || len(recs) != 1 || recs[0].Gate != "test" || !recs[0].Passed {
		t.Errorf("gates recorded on the tip's tree: %+v, %v; want test passed", recs, err)
	}
	if made, err := records.Of(l.Repo).Made("run1"); err != nil || len(made.Commits) != 1 || made.Commits[string(one)].Commit != ld.Tip() {
		t.Errorf("commits recorded: %+v, %v; want the tip alone", made, err)
	}
	if d := l.Desk.(*desk); len(d.said) != 1 || !strings.Contains(d.said[0], "integration gate failed on wave 2's combined tree") {
		t.Errorf("said %q, want the bisection", d.said)
	}
	msg := gittest.Git(t, l.Repo.Root, "log", "-1", "--format=%B")
	if !strings.Contains(msg, "Planx-Wave-Gate: ") {
		t.Errorf("the tip is not sealed with the gate's trailer:\n%s", msg)
	}
	if l.Tasks[0].Log.Commit != string(ld.Tip()) {
		t.Errorf("1.1's log entry names %s, want the sealed tip %s", l.Tasks[0].Log.Commit, ld.Tip())
	}
}

func TestLandingStopsAtATaskThatCouldNotRun(t *testing.T) {
	t.Parallel()
	l := landingOn(t)
	boom := errors.New("interrupted")
	l.Tasks[1].Err = boom
	ld, at, err := l.Run(context.Background())
	if !errors.Is(err, boom) || at != l.Tasks[1] {
		t.Fatalf("Run = %v at %v, want 1.2's error", err, at)
	}
	if len(ld.Tasks) != 0 || len(l.Done) != 0 {
		t.Errorf("landed %d, done %v: want nothing", len(ld.Tasks), l.done())
	}
	if head := gittest.Git(t, l.Repo.Root, "rev-parse", "HEAD"); head != string(l.Base) {
		t.Errorf("HEAD moved to %s", head)
	}
}

func TestLandingSettleMarksWhatDidNotLand(t *testing.T) {
	t.Parallel()
	l := landingOn(t)
	ld := Landed{Tasks: []*Task{l.Tasks[0]}}
	l.Tasks[1].Fail = &outcome.Failure{What: "conflict"}
	l.Tasks[2].Fail = &outcome.Failure{What: "gate"}
	for _, tk := range l.Tasks { // as if all were staged
		l.Done[tk.T.ID] = true
	}
	first := l.Settle(ld)
	if first != l.Tasks[1] {
		t.Fatalf("first failed = %v, want 1.2", first)
	}
	d := l.Desk.(*desk)
	if len(d.issues) != 1 || !strings.HasPrefix(d.issues[0], string(l.Tasks[2].T.ID)+": gate") {
		t.Errorf("issues %q, want 2's failure alone (the first is the stop's)", d.issues)
	}
	// What did not land is not done; the first failed task stays as its
	// stop leaves it.
	if want := []planparse.TaskID{l.Tasks[0].T.ID, l.Tasks[1].T.ID}; !slices.Equal(l.done(), want) {
		t.Errorf("done %v, want %v", l.done(), want)
	}
	if l.Tasks[0].Log.Status != "running" || l.Tasks[1].Log.Status != "failed" || l.Tasks[3].Log.Status != "pending" {
		t.Errorf("statuses %q %q %q", l.Tasks[0].Log.Status, l.Tasks[1].Log.Status, l.Tasks[3].Log.Status)
	}
	if !strings.Contains(l.Tasks[1].Fail.What, "its work is kept in the work tree") || l.Tasks[2].Log.Failure == "" {
		t.Errorf("T002: %q; T003's entry: %q", l.Tasks[1].Fail.What, l.Tasks[2].Log.Failure)
	}
}
