package rewind

import (
	"context"
	"slices"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
)

// editedSinceStop names, on res, the paths a person changed after the run
// stopped (since: the stop's tree) that the abort takes out of the work
// tree (kept at res.WorkRef): not the plan and the log, planx's own, nor
// .planx.yaml when it is put back. Nothing is named when planx cannot tell
// (since is ""). The paths the landing of the wave in flight stopped on,
// the person's too, are named apart (res.InTheWay).
func (u *rewind) editedSinceStop(ctx context.Context, since gitops.SHA, res *Result) error {
	if res.WorkRef == "" {
		return nil
	}
	// (Named once: a path in the way that was changed after the stop too
	// is among Edited.)
	defer func() {
		res.InTheWay = slices.DeleteFunc(slices.Clone(u.st.WaveInTheWay), func(p string) bool { return slices.Contains(res.Edited, p) })
	}()
	if since == "" {
		return nil
	}
	snap, err := u.repo.Refs().Resolve(ctx, res.WorkRef)
	if err != nil {
		return err
	}
	paths, err := u.repo.History().ChangedFiles(ctx, since, snap)
	if err != nil {
		return err
	}
	res.Edited = slices.DeleteFunc(paths, func(p string) bool {
		return p == u.st.PlanPath || (u.log != nil && p == u.log.Path) || (res.KeptConfig && p == gates.ConfigFile)
	})
	return nil
}
