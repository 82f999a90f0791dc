package review

import (
	"context"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
)

// HeldWork is a rollback commit that holds a person's uncommitted work
// from before a run (what differs from its parent): a push sends that work
// with the run, which its author may not have meant to publish.
type HeldWork struct {
	Commit gitops.SHA
	RunID  string
	Files  []string
}

// RollbackWork lists the rollback commits among cs that hold uncommitted
// work, oldest first as a push sends them.
func RollbackWork(ctx context.Context, repo *gitops.Repo, cs []gitops.Commit) ([]HeldWork, error) {
	var out []HeldWork
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		if record.TrailerOf(c.Message, record.TrailerRollback) != "true" {
			continue
		}
		var parent gitops.SHA
		if len(c.Parents) > 0 {
			parent = c.Parents[0]
		}
		files, err := repo.History().ChangedFiles(ctx, parent, c.SHA)
		if err != nil {
			return nil, err
		}
		if len(files) > 0 {
			out = append(out, HeldWork{Commit: c.SHA, RunID: record.TrailerOf(c.Message, record.TrailerRun), Files: files})
		}
	}
	return out, nil
}
