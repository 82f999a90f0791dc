package admit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// TestMain gives the tests one hermetic git environment (gittest.Main).
func TestMain(m *testing.M) { gittest.Main(m) }

const plan = "- [ ] T001 Write a\n  Files: a.txt\n  ```sh run\n  echo a > a.txt\n  ```\n"

// repoWithPlan is a repository holding plan.md and .planx.yaml (config).
func repoWithPlan(t *testing.T, config string) string {
	t.Helper()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", plan)
	gittest.WriteFile(t, dir, ".planx.yaml", config)
	gittest.Commit(t, dir, "initial")
	return dir
}

// The settings no flag sets come from .planx.yaml, pinned as the run
// starts; a flag's value stays the run's.
func TestPrepareDefaults(t *testing.T) {
	t.Parallel()
	dir := repoWithPlan(t, "step_timeout: 2m\ntask_timeout: 9m\njobs: 3\n")
	p, err := Prepare(context.Background(), Options{PlanPath: "plan.md", Dir: dir, TaskTimeout: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.O.StepTimeout != 2*time.Minute || p.O.TaskTimeout != time.Minute || p.O.Jobs != 3 || p.O.Attempts != 1 {
		t.Errorf("options %+v: want step 2m from the config, task 1m from the flag, jobs 3, attempts 1", p.O)
	}
	if p.Repo == nil || p.PlanRel != "plan.md" || p.Pinned == nil || p.Pinned.Config.Jobs != 3 || len(p.Plan.Order()) != 1 {
		t.Errorf("prepared repo %v, plan %q, pinned %+v", p.Repo, p.PlanRel, p.Pinned)
	}
}

// A resumed run keeps the settings it pinned at its start, not the
// configuration as it stands now.
func TestPrepareKeepsPinned(t *testing.T) {
	t.Parallel()
	dir := repoWithPlan(t, "step_timeout: 2m\n")
	pinned := &runstate.Pinned{Config: gates.Config{StepTimeout: 7 * time.Minute, Attempts: 2}}
	p, err := Prepare(context.Background(), Options{PlanPath: "plan.md", Dir: dir}, pinned)
	if err != nil {
		t.Fatal(err)
	}
	if p.Pinned != pinned || p.O.StepTimeout != 7*time.Minute || p.O.Attempts != 2 {
		t.Errorf("pinned %p (want %p), options %+v: want the pinned step timeout 7m and attempts 2", p.Pinned, pinned, p.O)
	}
}

// Outside a repository only a dry run is prepared (it shows the plan);
// a run is refused as the repository's state.
func TestPrepareOutsideRepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gittest.WriteFile(t, dir, "plan.md", plan)
	p, err := Prepare(context.Background(), Options{PlanPath: "plan.md", Dir: dir, DryRun: true}, nil)
	if err != nil || p.Repo != nil || p.PlanRel != "plan.md" {
		t.Fatalf("dry run outside a repository: %v, %+v", err, p)
	}
	if _, err := Prepare(context.Background(), Options{PlanPath: "plan.md", Dir: dir}, nil); !errors.Is(err, gitops.ErrRepoState) {
		t.Errorf("run outside a repository: %v, want gitops.ErrRepoState", err)
	}
}
