package review

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// otherPlanRun commits a run of plan other.md with a commit for each of
// ids, which the plan calls "other-<id>" (its Planx-Label).
func (h *history) otherPlanRun(run string, ids ...string) {
	h.t.Helper()
	h.commit(fmt.Sprintf("rollback: before executing plan other\n\nRefs: other.md\nPlanx-Run: %s\nPlanx-Rollback: true\n", run))
	for _, id := range ids {
		gittest.WriteFile(h.t, h.dir, "other-"+id+".txt", run+"\n")
		h.commit(fmt.Sprintf("%s: other\n\nRefs: other.md\nPlanx-Run: %s\nPlanx-Task: %s\n"+
			"Planx-Label: other-%s\nPlanx-Task-Hash: sha256:%064d\nPlanx-Executor: shell\nPlanx-Gate: check=pass 1ms\n", id, run, id, id, 0))
	}
}

func TestFindTaskAcrossPlansAndRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	const run2, run3 = "20260103-000000-aaaaaa", "20260104-000000-bbbbbb"
	h.fullRun(run1)
	h.otherPlanRun(run2, "T001")
	h.fullRun(run3)

	ids := func(fs []Found) (s []string) {
		for _, f := range fs {
			if f.Task == nil || f.Run.Task(f.Task.ID) != f.Task {
				t.Errorf("other run %s: commit %+v is not its task's", f.Run.ID, f.Task)
			}
			s = append(s, f.Run.ID)
		}
		return s
	}
	cases := []struct {
		name   string
		q      TaskQuery
		run    string
		others []string
		err    error
	}{
		{"newest of three runs of two plans", TaskQuery{ID: "T001"}, run3, []string{run2, run1}, nil},
		{"only in one run", TaskQuery{ID: "T002", Plan: "plan.md"}, run3, []string{run1}, nil},
		{"by plan", TaskQuery{ID: "T001", Plan: "other.md"}, run2, nil, nil},
		{"by whole run id", TaskQuery{ID: "T001", Run: run1}, run1, nil, nil},
		{"by run id prefix", TaskQuery{ID: "T001", Run: "20260103"}, run2, nil, nil},
		{"by plan and run", TaskQuery{ID: "T003", Plan: "plan.md", Run: "20260102"}, run1, nil, nil},
		{"ambiguous prefix", TaskQuery{ID: "T001", Run: "2026010"}, "", nil, ErrAmbiguous},
		{"no such run", TaskQuery{ID: "T001", Run: "1999"}, "", nil, ErrNotFound},
		{"run of another plan", TaskQuery{ID: "T001", Plan: "plan.md", Run: "20260103"}, "", nil, ErrNotFound},
		{"task not in the plan's runs", TaskQuery{ID: "T002", Plan: "other.md"}, "", nil, ErrNotFound},
		{"task not in the run", TaskQuery{ID: "T002", Run: run2}, "", nil, ErrNotFound},
		{"no run of the plan", TaskQuery{ID: "T001", Plan: "gone.md"}, "", nil, ErrNotFound},
	}
	for _, c := range cases {
		f, err := FindTask(ctx, h.repo, "", c.q)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: err = %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil || f.Run.ID != c.run || f.Task.ID != c.q.ID || fmt.Sprint(ids(f.Others)) != fmt.Sprint(c.others) {
			t.Errorf("%s: run %v others %v err %v; want run %s others %v", c.name, f.Run, ids(f.Others), err, c.run, c.others)
		}
	}
}

// Lookup takes a revision, a task id or a task's label; with --plan or
// --run what it is given is a task, never a revision.
func TestLookupRevisionLabelAndFilters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	const run2 = "20260103-000000-aaaaaa"
	h.fullRun(run1)
	h.otherPlanRun(run2, "T001")
	f, err := Lookup(ctx, h.repo, TaskQuery{ID: "HEAD"})
	if err != nil || f.Run.ID != run2 || f.Task.ID != "T001" || f.Task.Plan != "other.md" {
		t.Errorf("Lookup HEAD = %+v %v", f, err)
	}
	if _, err := Lookup(ctx, h.repo, TaskQuery{ID: "HEAD", Plan: "other.md"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Lookup HEAD with --plan read it as a revision: %v", err)
	}
	f, err = Lookup(ctx, h.repo, TaskQuery{ID: "other-T001", Plan: "other.md"})
	if err != nil || f.Run.ID != run2 || f.Task.ID != "T001" {
		t.Errorf("Lookup by label = %+v %v", f, err)
	}
	if _, err := Lookup(ctx, h.repo, TaskQuery{ID: "other-T001", Plan: "plan.md"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Lookup by label in another plan's runs: %v", err)
	}
	f, err = Lookup(ctx, h.repo, TaskQuery{ID: "T001"})
	if err != nil || f.Run.ID != run2 || len(f.Others) != 1 || f.Others[0].Run.ID != run1 || f.Others[0].Task.Plan != "plan.md" {
		t.Errorf("Lookup T001 = %+v %v", f, err)
	}
}
