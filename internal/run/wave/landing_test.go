package wave

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// landingOn is a landing of chainRepo's four tasks (T003 conflicts with
// T001) whose run's parts are fakes; staged lists the tasks Staged saw.
func landingOn(t *testing.T) (*Landing, *[]planparse.TaskID) {
	repo, base, works := chainRepo(t)
	var staged []planparse.TaskID
	l := &Landing{Repo: repo, Pool: NewPool(repo), RunID: "run1", Base: base, Number: 2,
		Plan: []byte("- [ ] T001 one\n- [ ] T002 two\n- [ ] T003 six\n- [ ] T004 ten\n"), PlanRel: "plan.md", LogPath: "log.md",
		Groups:  func(*planparse.Task) []*planparse.Task { return nil },
		Message: func(it *Task, _ []*planparse.Task, ticked bool) string { return "task " + string(it.T.ID) + "\n\n" },
		Log: func(it *Task, final bool) []byte {
			it.Log.Status = "done"
			return []byte("log of " + string(it.T.ID) + "\n")
		},
		Staged:       func(it *Task) { staged = append(staged, it.T.ID) },
		RecordGates:  func(context.Context, *planparse.Task, gitops.SHA, []execlog.Gate) {},
		RecordCommit: func(context.Context, planparse.TaskID, gitops.SHA) gitops.SHA { return "" },
		Warn:         func(planparse.TaskID, string) {},
	}
	for i, w := range works {
		// The box of task i is at byte 3 of its line (lines of 15 bytes).
		l.Tasks = append(l.Tasks, &Task{T: &planparse.Task{ID: w.ID, Checkbox: 15*i + 3}, Log: &execlog.Task{}, Work: w.Commit, Dir: t.TempDir() + "/gone"})
	}
	return l, &staged
}

func TestLandingLandsInPlanOrderAndKeepsTheConflict(t *testing.T) {
	t.Parallel()
	l, staged := landingOn(t)
	ctx := context.Background()
	ld, at, err := l.Run(ctx)
	if err != nil || at != nil {
		t.Fatalf("Run: %v at %v", err, at)
	}
	if want := []planparse.TaskID{"T001", "T002", "T004"}; !slices.Equal(*staged, want) {
		t.Errorf("staged %v, want %v", *staged, want)
	}
	if len(ld.Tasks) != 3 || ld.Tasks[2] != l.Tasks[3] {
		t.Fatalf("landed %d tasks, want T001 T002 T004", len(ld.Tasks))
	}
	if l.Tasks[2].Fail == nil || !strings.Contains(l.Tasks[2].Fail.What, "conflict") {
		t.Errorf("T003's failure = %v, want a conflict", l.Tasks[2].Fail)
	}
	head := gittest.Git(t, l.Repo.Root, "rev-parse", "HEAD")
	if head != string(ld.Tip()) {
		t.Errorf("HEAD %s, want the tip %s", head, ld.Tip())
	}
	msg := gittest.Git(t, l.Repo.Root, "log", "-1", "--format=%B")
	if !strings.HasPrefix(msg, "task T004") || !strings.Contains(msg, "Planx-Wave: 2 "+string(l.Base)) {
		t.Errorf("tip's message:\n%s", msg)
	}
	if plan := gittest.Git(t, l.Repo.Root, "show", "HEAD:plan.md"); !strings.Contains(plan, "[x] T004") || strings.Contains(plan, "[x] T003") {
		t.Errorf("tip's plan:\n%s", plan)
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
	l, _ := landingOn(t)
	l.Tasks = l.Tasks[:2] // T001, T002
	var recorded []string
	l.RecordGates = func(_ context.Context, gt *planparse.Task, _ gitops.SHA, _ []execlog.Gate) {
		recorded = append(recorded, string(gt.ID))
	}
	held := map[string][]planparse.TaskID{} // the tasks whose work each check's tree holds
	l.Gates = func(ctx context.Context, gt *planparse.Task, dir string, tasks []*planparse.Task) ([]execlog.Gate, *outcome.Failure, error) {
		if _, err := gitops.Open(ctx, dir); err != nil {
			return nil, nil, err
		}
		for _, t := range tasks {
			held[string(gt.ID)] = append(held[string(gt.ID)], t.ID)
		}
		if strings.HasSuffix(string(gt.ID), "T002") {
			return nil, &outcome.Failure{What: "test failed"}, nil
		}
		return []execlog.Gate{{Name: "test", Passed: true}}, nil, nil
	}
	ld, _, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Tasks) != 1 || ld.Tasks[0] != l.Tasks[0] {
		t.Fatalf("landed %d tasks, want T001 alone", len(ld.Tasks))
	}
	if f := l.Tasks[1].Fail; f == nil || !strings.Contains(f.What, "integration gate") {
		t.Errorf("T002's failure = %v, want the integration gate's", f)
	}
	if !slices.Equal(held["wave2-T002"], []planparse.TaskID{"T001", "T002"}) || !slices.Equal(held["wave2-T001"], []planparse.TaskID{"T001"}) {
		t.Errorf("the checks' trees hold %v, want T001 and T002 at the tip, T001 before", held)
	}
	if !slices.Equal(recorded, []string{"wave2-T001"}) {
		t.Errorf("gates recorded for %v, want wave2-T001", recorded)
	}
	msg := gittest.Git(t, l.Repo.Root, "log", "-1", "--format=%B")
	if !strings.Contains(msg, "Planx-Wave-Gate: ") {
		t.Errorf("the tip is not sealed with the gate's trailer:\n%s", msg)
	}
	if l.Tasks[0].Log.Commit != string(ld.Tip()) {
		t.Errorf("T001's log entry names %s, want the sealed tip %s", l.Tasks[0].Log.Commit, ld.Tip())
	}
}

func TestLandingStopsAtATaskThatCouldNotRun(t *testing.T) {
	t.Parallel()
	l, staged := landingOn(t)
	boom := errors.New("interrupted")
	l.Tasks[1].Err = boom
	ld, at, err := l.Run(context.Background())
	if !errors.Is(err, boom) || at != l.Tasks[1] {
		t.Fatalf("Run = %v at %v, want T002's error", err, at)
	}
	if len(ld.Tasks) != 0 || len(*staged) != 0 {
		t.Errorf("landed %d, staged %v: want nothing", len(ld.Tasks), *staged)
	}
	if head := gittest.Git(t, l.Repo.Root, "rev-parse", "HEAD"); head != string(l.Base) {
		t.Errorf("HEAD moved to %s", head)
	}
}

func TestLandingSettleMarksWhatDidNotLand(t *testing.T) {
	t.Parallel()
	l, _ := landingOn(t)
	ld := Landed{Tasks: []*Task{l.Tasks[0]}}
	l.Tasks[1].Fail = &outcome.Failure{What: "conflict"}
	l.Tasks[2].Fail = &outcome.Failure{What: "gate"}
	var failed, undone []planparse.TaskID
	first := l.Settle(ld, func(tk *Task) { failed = append(failed, tk.T.ID) }, func(tk *Task) { undone = append(undone, tk.T.ID) })
	if first != l.Tasks[1] {
		t.Fatalf("first failed = %v, want T002", first)
	}
	if !slices.Equal(failed, []planparse.TaskID{"T003"}) || !slices.Equal(undone, []planparse.TaskID{"T003", "T004"}) {
		t.Errorf("failed %v, undone %v; want T003, and T003 T004", failed, undone)
	}
	if l.Tasks[0].Log.Status != "" || l.Tasks[1].Log.Status != "failed" || l.Tasks[3].Log.Status != "pending" {
		t.Errorf("statuses %q %q %q", l.Tasks[0].Log.Status, l.Tasks[1].Log.Status, l.Tasks[3].Log.Status)
	}
	if !strings.Contains(l.Tasks[1].Fail.What, "its work is kept in the work tree") || l.Tasks[2].Log.Failure == "" {
		t.Errorf("T002: %q; T003's entry: %q", l.Tasks[1].Fail.What, l.Tasks[2].Log.Failure)
	}
}
