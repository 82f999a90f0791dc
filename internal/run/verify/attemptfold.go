package verify

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// fold turns commits the executor made on its own into staged changes
// of the task, keeping their messages for the task commit's body. A branch
// switch or a rewrite of history planx had fails the task.
func (a *Attempt) fold(ctx context.Context, c Tree, t *planparse.Task, kind planparse.Kind) error {
	head, err := c.Repo.HeadNow()
	if err != nil {
		return err
	}
	if head.Branch != c.Branch {
		return &outcome.Failure{What: fmt.Sprintf("the task switched HEAD from branch %q to %q; %s", c.Branch, HeadName(head), SwitchBack(c.Branch, "`planx resume`"))}
	}
	tip := head.SHA
	if a.SpaceTip != "" && head.SHA == c.Base {
		// The agent committed in its task space: the branch did not move,
		// its commits end at the space's HEAD. Fold them the same way.
		tip, a.SpaceTip = a.SpaceTip, ""
	}
	f, err := Fold(ctx, c.Repo, c.Branch, t.ID, c.Base, tip, kind == planparse.KindShell)
	if err != nil || f.Tip == "" {
		return err
	}
	// The executor's (an agent's, or a person's doing a manual task)
	// commits stay reachable after the fold.
	// The ref is written after the check of the git directory (gitDir):
	// planx's own write must not read as the task's.
	keep := record.RunRef(c.RunID, "folded/"+string(t.ID))
	a.FoldedTip = f.Tip
	a.Folded = append(a.Folded, f.Messages...)
	msg := fmt.Sprintf("folded %d commit(s) the executor made itself into the task commit (by %s; kept at %s)", len(f.Messages), strings.Join(f.Authors, ", "), keep)
	a.Warnings = append(a.Warnings, fmt.Sprintf("folded-commits=%d", len(f.Messages)))
	c.Desk.Issue(t.ID, msg, "fixed: folded")
	c.Desk.Say(t.ID, msg)
	return nil
}

// HeadName names where HEAD is: its branch, or a detached HEAD.
func HeadName(h gitops.Head) string { return cmp.Or(h.Branch, "a detached HEAD") }

// SwitchBack is the way back to the run's branch, and what to do then.
func SwitchBack(branch, then string) string {
	return fmt.Sprintf("switch back (git switch %s), then %s", branch, then)
}
