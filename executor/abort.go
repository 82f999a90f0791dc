package executor

import (
	"context"
	"fmt"
	"github.com/planx-dev/planx/record"
	"os"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/execlog"

	"github.com/planx-dev/planx/gitops"
)

// AbortResult says where an aborted run's traces are kept.
type AbortResult struct {
	RunID    string
	HeadRef  string // the run's commits
	WorkRef  string // the work tree as it was at the abort ("" when clean)
	LogCopy  string // absolute path of the execution log's copy
	Restored gitops.SHA
}

// Abort returns the repository to exactly the state before the run: HEAD at
// the original commit and the user's former uncommitted work restored as
// uncommitted changes. Nothing is lost: the run's commits stay reachable under
// refs/planx/runs/<run-id>/head, the work tree as it was at the abort under
// .../aborted, and the execution log is copied under .git/planx/runs/<run-id>/.
func Abort(ctx context.Context, ro ResumeOptions) (*AbortResult, error) {
	r, _, unlock, err := openRun(ctx, ro, "abort", false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	head := r.head
	id := r.st.RunID
	res := &AbortResult{RunID: id, HeadRef: "refs/planx/runs/" + id + "/head", Restored: r.st.OrigHead}
	if err := r.repo.UpdateRef(ctx, res.HeadRef, head.SHA, "", "planx: abort keeps the run's commits"); err != nil {
		return nil, err
	}
	r.log.Status, r.log.Finished = record.RunAborted, time.Now().UTC()
	r.log.Issues = append(r.log.Issues, execlog.Issue{Task: string(r.st.Current), What: "run aborted by `planx abort`", Time: time.Now().UTC()})
	if err := r.log.WriteFile(r.repo.Root); err != nil {
		return nil, err
	}
	res.LogCopy = filepath.Join(runDir(r.repo, id), "execution-log.md")
	if err := os.MkdirAll(filepath.Dir(res.LogCopy), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(res.LogCopy, r.log.Render(), 0o644); err != nil {
		return nil, fmt.Errorf("keep the execution log: %w", err)
	}
	changes, err := r.repo.Status(ctx)
	if err != nil {
		return nil, err
	}
	if len(changes) > 0 {
		snap, err := r.repo.Snapshot(ctx, fmt.Sprintf("planx: work tree at abort of run %s\n\n%s: %s\n", id, record.TrailerRun, id), head.SHA)
		if err != nil {
			return nil, err
		}
		res.WorkRef = "refs/planx/runs/" + id + "/aborted"
		if err := r.repo.UpdateRef(ctx, res.WorkRef, snap, "", "planx: work tree at abort"); err != nil {
			return nil, err
		}
	}
	// Files the run created and never committed are saved in the snapshot;
	// reset --hard would leave them behind.
	var created []string
	for _, c := range changes {
		if c.Index == '?' {
			created = append(created, c.Path)
		}
	}
	if err := r.repo.Discard(ctx, nil, created); err != nil {
		return nil, err
	}
	if err := r.repo.ResetHard(ctx, r.st.Base); err != nil {
		return nil, err
	}
	if r.st.OrigHead == "" {
		err = r.repo.Unborn(ctx, r.st.Branch)
	} else {
		err = r.repo.ResetMixed(ctx, r.st.OrigHead)
	}
	if err != nil {
		return nil, err
	}
	if err := clearState(r.repo); err != nil {
		return nil, err
	}
	return res, nil
}
