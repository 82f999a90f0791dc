package drive

import (
	"context"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/land"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/planparse"
)

// commit makes t's commit in the user's work tree (land.Committer) and
// takes back into the run where HEAD now is, what is done and what a hook
// left dirty.
func (r *runner) commit(ctx context.Context, t *planparse.Task, lt *execlog.Task, last bool, folded, warnings []string) (gitops.SHA, error) {
	if r.done == nil {
		r.done = map[planparse.TaskID]bool{}
	}
	c := &land.Committer{Repo: r.repo, State: r.st, Log: r.log, Plan: r.pf, PlanRel: r.planRel, Path: r.CommitPath,
		NoVerify: r.o.NoVerify, Fault: r.fault, Book: r.keeper().Book(), Out: r.out, Desk: r.desk(), Pids: r.pids(),
		Reaper: r.reaper, Reports: r.keeper().Reports(), Groups: r.CompletedGroups(t, r.done, r.o.Optional),
		HeldPlan: recovery.HeldPlanPath(r.repo, r.st.RunID, string(t.ID)),
		Expect:   r.expect, Done: r.done, Dirty: r.dirty}
	sha, err := c.Commit(ctx, t, lt, last, folded, warnings)
	r.expect, r.dirty = c.Expect, c.Dirty
	return sha, err
}

// rollbackOf is the run's rollback commit (land.Rollback), as the run
// stands now.
func (r *runner) rollbackOf() *land.Rollback {
	return &land.Rollback{Repo: r.repo, State: r.st, Log: r.log, Fault: r.fault, Survey: r.survey, Head: r.head.SHA,
		Porcelain: r.RollbackPorcelain, Topic: r.Plan.Topic, PlanRel: r.planRel, Checks: r.preChecks}
}
