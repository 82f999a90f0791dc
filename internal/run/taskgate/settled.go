package taskgate

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// The judge does not change the evidence: what is committed is what was
// verified and gated. After verify the task's work is staged; a gate that
// changes the work tree (a side effect, `rm -rf`, a formatter not declared
// as one) or a process that outlived the executor would otherwise have its
// changes swept into the task commit as if the task had made them.

// recordFix stages what the fixer gate just run changed and lists the
// paths on its result, for the log and the commit's Planx-Fixed trailers.
// apart are a person's edits the task's staging left out, which stay so.
func (k *Keeper) recordFix(ctx context.Context, t *planparse.Task, lt *execlog.Task, apart ...string) error {
	if msg := k.Reaper.Detached(); msg != "" {
		hall.Warn(k.Desk, t.ID, msg)
	}
	paths, ok, err := k.Repo.Index().StageAgain(ctx, append(k.unstaged(), apart...)...)
	if err != nil {
		return fmt.Errorf("stage the changes of fixer gates of %s: %w", t.ID, err)
	}
	if !ok {
		paths = []string{"(paths git could not name unambiguously)"}
	}
	g := &lt.Gates[len(lt.Gates)-1]
	g.Fixed = paths
	if len(paths) > 0 {
		hall.Warn(k.Desk, t.ID, fmt.Sprintf("gate %s (fix: true) changed %s; the change is committed with the task", g.Name, strings.Join(paths, ", ")))
	}
	return nil
}

// checkSettled fails the task when anything changed the work tree since
// its work was staged (after verify, or after the fixers): the commit must
// hold exactly the tree the gates passed on. apart are a person's edits
// the task's staging left out, which stay so.
func (k *Keeper) checkSettled(ctx context.Context, t *planparse.Task, apart ...string) error {
	if msg := k.Reaper.Detached(); msg != "" {
		hall.Warn(k.Desk, t.ID, msg)
	}
	paths, ok, err := k.Repo.Index().StageAgain(ctx, append(k.unstaged(), apart...)...)
	if err != nil {
		return fmt.Errorf("stage %s after its gates: %w", t.ID, err)
	}
	if ok && len(paths) == 0 {
		return nil
	}
	if !ok {
		paths = []string{"paths git could not name unambiguously"}
	}
	return unsettled(paths)
}

// settledIn is checkSettled for gates run in a clean checkout: its links
// into the work tree gone, its tracked files must be as checked out, or a
// gate changed what it judged (a formatter not declared a fixer would pass
// a commit it did not format). New files a gate writes there (bytecode, a
// report) are its outputs: the commit is the staged tree, which they never
// reach, and release removes them.
func settledIn(ctx context.Context, t *planparse.Task, wt *Slot) error {
	wt.unlink()
	slot, err := gitops.Open(ctx, wt.dir)
	if err != nil {
		return fmt.Errorf("the clean checkout of %s after its gates: %w", t.ID, err)
	}
	changes, err := slot.Index().TrackedChanges(ctx)
	if err != nil {
		return fmt.Errorf("the clean checkout of %s after its gates: %w", t.ID, err)
	}
	var paths []string
	for _, c := range changes {
		paths = append(paths, c.Path)
	}
	if len(paths) == 0 {
		return nil
	}
	return unsettled(paths)
}

func unsettled(paths []string) error {
	what := "files changed after the task's work was verified, while the gates ran: " + strings.Join(paths, ", ")
	return &outcome.Failure{What: what + "; the judge must not change the evidence",
		Hint: "a gate that rewrites files (a formatter) must be declared `fix: true` in .planx.yaml"}
}
