package recovery

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// heldPlanPrefix names the files a task's commit keeps a person's edit of
// the plan in while it commits the plan planx knew (planfile.File.Hold).
const heldPlanPrefix = "plan-edit-"

// HeldPlanPath is where the commit of task id keeps that edit: a name of
// its own per commit, so that a later commit of the task (after a crash)
// never takes the place of the one a crash left.
func HeldPlanPath(repo *gitops.Repo, runID, id string) string {
	return filepath.Join(runstate.RunDir(repo, runID), heldPlanPrefix+id+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
}

// WarnHeldPlan names the edits of the plan that planx, stopped in the
// middle of a task's commit (killed), kept aside and never put back, with
// the command that puts one back.
func WarnHeldPlan(repo *gitops.Repo, st *runstate.State, out *progress.Progress) {
	kept, _ := filepath.Glob(filepath.Join(runstate.RunDir(repo, st.RunID), heldPlanPrefix+"*"))
	plan := filepath.Join(repo.Root, filepath.FromSlash(st.PlanPath))
	for _, k := range kept {
		id, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(k), heldPlanPrefix), "-")
		out.Println("planx: warning: your edit of %s made while %s ran was kept aside in %s when planx was stopped during its commit, and is not in the plan now; `cp %s %s` puts it back (with the checkboxes it had then)",
			st.PlanPath, id, k, k, plan)
	}
}
