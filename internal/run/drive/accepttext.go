package drive

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/internal/textsafe"
)

// acceptText accepts the new text of the done tasks whose text changed
// since their commit (sel.Drift), without running them again (--accept-text):
// a cosmetic edit is not work to redo, and running the task again would
// find nothing to change. Each gets one commit of HEAD's own tree whose
// trailers record the old and the new hash; the tasks count as done from
// then on. head moves with the commits.
func (r *runner) acceptText(ctx context.Context, sel *runplan.Selection, head *gitops.Head) error {
	for _, d := range sel.Drift {
		t := r.Plan.Task(d.Task)
		if t == nil {
			return fmt.Errorf("accept the text of %s: not in the plan", d.Task)
		}
		old := gitops.SHA(d.Commit)
		cs, err := r.repo.History().Log(ctx, old, "", 1)
		if err != nil || len(cs) != 1 {
			return fmt.Errorf("accept the text of %s: read its commit %s: %w", d.Task, old.Short(), err)
		}
		msg := ledger.AcceptTextMessage(r.planRel, t, old, record.TrailerOf(cs[0].Message, record.TrailerTaskHash))
		sha, err := r.repo.Commits().CommitUnchanged(ctx, msg, head.SHA, "HEAD")
		if err != nil {
			return fmt.Errorf("accept the text of %s: %w", d.Task, err)
		}
		head.SHA = sha
		r.done[t.ID] = true
		sel.Done++
		r.out.Println("planx: %s %s: its new text accepted without running it again (commit %s)",
			textsafe.Line(t.DisplayID()), textsafe.Line(textsafe.Shorten(t.Title, 60)), sha.Short())
	}
	sel.Drift = nil
	return nil
}
