package command

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/gittest"
)

// crashWavePlan has a wave of three [P] tasks between two serial ones. Each
// [P] step notes that it ran in runs.log next to the repository, so a task
// run again after a crash shows; T003 is slow, so a kill when the first task
// of the wave is done lands while it still runs; T001's gate and the
// integration gate are slow so a kill can land inside them (told by the
// tree they judge: a gate sees no PLANX_TASK_ID).
const crashWavePlan = `---
topic: crashwave
gates:
  - name: check
    command: if { [ ! -e b.txt ] && [ ! -e d.txt ]; } || { [ -e b.txt ] && [ -e d.txt ] && [ ! -e sum.txt ]; }; then sleep 0.4; fi; test -f a.txt
---
- [ ] T001 Slow append
  ` + "```sh run" + `
  echo start >> a.txt
  sleep 0.2
  echo end >> a.txt
  ` + "```" + `
- [ ] T002 [P] Add b
  ` + "```sh run" + `
  echo T002 >> "$(dirname "$PLANX_PLAN")/../runs.log"
  echo b > b.txt
  ` + "```" + `
- [ ] T003 [P] Add c
  ` + "```sh run" + `
  echo T003 >> "$(dirname "$PLANX_PLAN")/../runs.log"
  sleep 0.6
  mkdir -p sub && echo c > sub/c.txt
  ` + "```" + `
- [ ] T004 [P] Add d
  ` + "```sh run" + `
  echo T004 >> "$(dirname "$PLANX_PLAN")/../runs.log"
  echo d > d.txt
  ` + "```" + `
- [ ] T005 Sum
  ` + "```sh run" + `
  cat b.txt sub/c.txt d.txt > sum.txt
  ` + "```" + `
`

// TestKillAtEveryPointParallel is TestKillAtEveryPoint with --jobs 3 (the
// same harness, crashRun): after
// a SIGKILL at any point (the serial ones, met by T001 first, and the
// wave's) and a resume, the history and files are those of an uninterrupted
// --jobs 1 run, and a [P] task whose work was done is not run again.
func TestKillAtEveryPointParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and resumes planx once per fault point")
	}
	t.Parallel()
	planx := planxBinary(t)
	env := gittest.EnvironHome(t.TempDir())
	want, _ := crashRun(t, crash{env: env, planx: planx, plan: crashWavePlan, jobs: "1"})
	points := append(fault.Points(), fault.ParallelPoints()...)
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			got, runs := crashRun(t, crash{env: env, planx: planx, plan: crashWavePlan, jobs: "3", point: point})
			if got != want {
				t.Fatalf("after a kill at %s and resume:\n%s\nuninterrupted --jobs 1 run:\n%s", point, got, want)
			}
			once := 0
			for _, id := range []string{"T002", "T003", "T004"} {
				if strings.Count(runs, id) == 1 {
					once++
				}
			}
			switch point {
			case "after-wave-task":
				// Killed mid-wave: the task recorded done is not run again.
				if once == 0 {
					t.Fatalf("every [P] task ran again after a kill mid-wave:\n%s", runs)
				}
			case "after-wave", "after-stage-commit", "during-wave-gate", "before-advance", "after-read-tree", "after-branch", "after-advance":
				if once != 3 {
					t.Fatalf("a [P] task done before the kill ran again:\n%s", runs)
				}
			}
		})
	}
}
