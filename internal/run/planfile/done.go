package planfile

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// Done reads from git which tasks of this plan are done: a task commit
// (Refs: this plan, Planx-Task: the ID) whose recorded task hash matches
// the task's text as it stands. A commit under another ID with the task's
// hash counts too, so renumbering tasks (inserting one above) is not drift.
// It returns the done tasks (a map even when none is) and, per task, the newest commit
// whose hash no longer matches. repo is nil for a dry run outside a
// repository.
func (pf *File) Done(ctx context.Context, repo *gitops.Repo, plan *planparse.Plan) (done map[planparse.TaskID]bool, stale map[planparse.TaskID]gitops.Commit, err error) {
	done = map[planparse.TaskID]bool{}
	if repo == nil {
		return done, nil, nil
	}
	head, err := repo.HeadNow()
	if err != nil || head.SHA == "" {
		return done, nil, nil // an unborn branch has no history to ask
	}
	commits, err := repo.History().Mentioning(ctx, head.SHA, record.TrailerRefs+": "+pf.Rel)
	if err != nil {
		return nil, nil, fmt.Errorf("read the plan's task commits: %w", err)
	}
	hash := make(map[planparse.TaskID]string, len(plan.Tasks)) // each task's text as it stands
	current := map[string]bool{}
	for _, t := range plan.Tasks {
		hash[t.ID] = "sha256:" + t.Hash()
		current[hash[t.ID]] = true
	}
	newest := map[planparse.TaskID]gitops.Commit{}
	moved := map[string]bool{} // task hashes committed under an ID that now names other text
	for _, c := range commits {
		ts := record.ParseTrailers(c.Message)
		if record.ValueOf(ts, record.TrailerRefs) != pf.Rel {
			continue
		}
		id := planparse.TaskID(record.ValueOf(ts, record.TrailerTask))
		if id == "" {
			continue
		}
		if _, seen := newest[id]; !seen {
			newest[id] = c
		}
		if h := record.ValueOf(ts, record.TrailerTaskHash); !hashOf(plan, id, h) {
			moved[h] = true
		}
	}
	stale = map[planparse.TaskID]gitops.Commit{}
	for _, t := range plan.Tasks {
		h := hash[t.ID]
		c, ok := newest[t.ID]
		committed := record.TrailerOf(c.Message, record.TrailerTaskHash)
		switch {
		case ok && t.HashMatches(committed):
			done[t.ID] = true
		case moved[h]:
			// Committed under another ID: a task inserted above renumbered it.
			done[t.ID] = true
		case ok && current[committed]:
			// The text committed under this ID is another task's now: this
			// one is new (inserted above, renumbering the rest).
		case ok:
			stale[t.ID] = c
		}
	}
	return done, stale, nil
}

// hashOf reports whether the plan's task id has the text a commit's
// Planx-Task-Hash records.
func hashOf(plan *planparse.Plan, id planparse.TaskID, h string) bool {
	t := plan.Task(id)
	return t != nil && t.HashMatches(h)
}
