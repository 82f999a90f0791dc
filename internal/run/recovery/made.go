package recovery

import (
	"fmt"
	"sort"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/planparse"
)

// rewrite is a task commit on the branch that is not the one planx made.
type rewrite struct {
	Found gitops.SHA // the commit on the branch
	Made  gitops.SHA // planx's commit for the task; "" when planx made none
}

func (w rewrite) String(id planparse.TaskID) string {
	if w.Made == "" {
		return fmt.Sprintf("%s: commit %s was not made by planx (it made no commit for %s); its tree was never gated", id, w.Found.Short(), id)
	}
	return fmt.Sprintf("%s: commit %s is not the commit planx made (%s); its tree was never gated", id, w.Found.Short(), w.Made.Short())
}

// dropRewritten moves out of h.Commits every task commit that is not the
// one planx recorded making (an amend, a rebase, a hand-made commit with
// copied trailers): such a task is not done. A commit planx has no record
// of, for the task the run stopped at, on the parent planx recorded it was
// about to commit on, is the one a crash kept planx from recording: it is
// adopted, and recorded now. Runs made before planx kept records (no record
// of the run at all) are taken as git has them.
func dropRewritten(repo *gitops.Repo, runID string, current planparse.TaskID, h *History) error {
	rec, err := records.Of(repo).Made(runID)
	if err != nil || !rec.Known {
		return err
	}
	for id, c := range h.Commits {
		m, ok := rec.Commits[string(id)]
		p, pending := rec.Pending[string(id)]
		switch {
		case ok && m.Commit == c.SHA:
			continue
		case !ok && id == current && pending && len(c.Parents) > 0 && c.Parents[0] == p.Parent:
			if err := records.Of(repo).AddMade(runID, records.MadeCommit{Task: string(id), Commit: c.SHA, Tree: c.Tree}); err != nil {
				return err
			}
			continue
		}
		if h.rewritten == nil {
			h.rewritten = map[planparse.TaskID]rewrite{}
		}
		h.rewritten[id] = rewrite{Found: c.SHA, Made: m.Commit}
		delete(h.Commits, id)
	}
	return nil
}

// RewrittenError refuses to go on from a history planx did not make.
func (h *History) RewrittenError() error {
	if len(h.rewritten) == 0 {
		return nil
	}
	var lines []string
	for id, w := range h.rewritten {
		lines = append(lines, w.String(id))
	}
	sort.Strings(lines)
	return fmt.Errorf("%w: the run's history was rewritten: %s; put planx's commits back (git reset --hard <planx's commit>) or `planx abort`",
		gitops.ErrRepoState, strings.Join(lines, "; "))
}
