package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/record"
)

// AbortResult says where an aborted run's traces are kept.
type AbortResult struct {
	RunID    string
	HeadRef  string // the run's commits ("" when HEAD never moved)
	WorkRef  string // the work tree as it was at the abort ("" when clean)
	LogCopy  string // absolute path of the execution log's copy ("" when the run had none)
	Restored gitops.SHA
	// Later are commits on the branch above the rollback commit that are
	// not the run's (a person committed after the stop): kept under
	// HeadRef, listed so nobody has to discover them missing.
	Later []gitops.Commit
	// Wave is the work of parallel waves kept under refs (see keepWave).
	Wave []KeptWork
}

// Abort returns the repository to exactly the state before the run: HEAD at
// the original commit, the user's former uncommitted work restored as
// uncommitted changes and the index as it was (staged stays staged). It
// works from any state a run can stop in, including before the rollback
// commit exists and after an executor reset the branch below it. Nothing is
// lost: the commits on the branch stay reachable under
// refs/planx/runs/<run-id>/head, the work tree as it was at the abort under
// .../aborted, and the execution log is copied under .git/planx/runs/<run-id>/.
func Abort(ctx context.Context, ro ResumeOptions) (*AbortResult, error) {
	repo, err := gitops.Open(ctx, firstNonEmpty(ro.Dir, "."))
	if err != nil {
		return nil, err
	}
	// Nothing to abort: say so before the lock, whose file would create
	// .git/planx/ in a repository that never ran planx.
	if _, err := os.Stat(statePath(repo)); errors.Is(err, fs.ErrNotExist) {
		return nil, errNoRun
	}
	lk, err := acquireLock(repo, "abort")
	if err != nil {
		return nil, err
	}
	defer lk.release()
	st, err := LoadState(repo)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, errNoRun
	}
	r := &runner{repo: repo, st: st, log: st.Log, planRel: st.PlanPath, out: newProgress(ro.Output)}
	r.pids().cleanOrphans(r.out)
	if what := r.watchFile().checkInterrupted(st.Current); what != "" {
		r.out.warn(st.Current, what)
	}
	head, err := repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	if head.Branch != st.Branch {
		return nil, fmt.Errorf("%w: the run was on branch %q but HEAD is on %q; switch back (git switch %s), then `planx abort`",
			gitops.ErrRepoState, st.Branch, firstNonEmpty(head.Branch, "a detached HEAD"), st.Branch)
	}
	base := st.Base
	if base == "" {
		base = r.rollbackAt(ctx, head) // a crash kept planx from recording it
	}
	res := &AbortResult{RunID: st.RunID, Restored: st.OrigHead}
	if err := r.keepTraces(ctx, head, base, res); err != nil {
		return nil, err
	}
	if err := r.keepWave(ctx, res); err != nil {
		return nil, err
	}
	if err := r.restorePreRun(ctx, head, base); err != nil {
		return nil, err
	}
	if err := clearState(repo); err != nil {
		return nil, err
	}
	return res, nil
}

// rollbackAt returns HEAD when it is this run's rollback commit, else "".
func (r *runner) rollbackAt(ctx context.Context, head gitops.Head) gitops.SHA {
	if head.SHA == "" || head.SHA == r.st.OrigHead {
		return ""
	}
	cs, err := r.repo.History().Log(ctx, head.SHA, "", 1)
	if err != nil || len(cs) != 1 {
		return ""
	}
	if trailer(cs[0], record.TrailerRun) == r.st.RunID && trailer(cs[0], record.TrailerRollback) == "true" {
		return cs[0].SHA
	}
	return ""
}

// keepTraces puts under refs what the abort is about to take out of the
// branch and the work tree, and copies the log.
func (r *runner) keepTraces(ctx context.Context, head gitops.Head, base gitops.SHA, res *AbortResult) error {
	id := r.st.RunID
	if head.SHA != "" && head.SHA != r.st.OrigHead {
		res.HeadRef = "refs/planx/runs/" + id + "/head"
		if err := r.repo.Refs().Update(ctx, res.HeadRef, head.SHA, "", "planx: abort keeps the run's commits"); err != nil {
			return err
		}
		if from := firstNonEmpty(string(base), string(r.st.OrigHead)); from != "" {
			if ok, err := r.repo.History().IsAncestor(ctx, gitops.SHA(from), head.SHA); err == nil && ok {
				cs, err := r.repo.History().Log(ctx, head.SHA, gitops.SHA(from), 0)
				if err != nil {
					return err
				}
				for _, c := range cs {
					if trailer(c, record.TrailerRun) != id {
						res.Later = append(res.Later, c)
					}
				}
			}
		}
	}
	if r.log != nil {
		r.log.Status, r.log.Finished = record.RunAborted, time.Now().UTC()
		r.log.Issues = append(r.log.Issues, execlog.Issue{Task: string(r.st.Current), What: "run aborted by `planx abort`", Time: time.Now().UTC()})
		if base != "" {
			// Before the rollback commit the log was never written: writing
			// it now would leave a file the run did not leave.
			if err := r.log.WriteFile(r.repo.Root); err != nil {
				return err
			}
		}
		res.LogCopy = filepath.Join(runDir(r.repo, id), "execution-log.md")
		if err := os.MkdirAll(filepath.Dir(res.LogCopy), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(res.LogCopy, r.log.Render(), 0o644); err != nil {
			return fmt.Errorf("keep the execution log: %w", err)
		}
	}
	dirty, err := r.repo.Dirty(ctx)
	if err != nil || !dirty {
		return err
	}
	snap, err := r.repo.Snapshot(ctx, fmt.Sprintf("planx: work tree at abort of run %s\n\n%s: %s\n", id, record.TrailerRun, id), head.SHA)
	if err != nil {
		return err
	}
	res.WorkRef = "refs/planx/runs/" + id + "/aborted"
	return r.repo.Refs().Update(ctx, res.WorkRef, snap, "", "planx: work tree at abort")
}

// restorePreRun puts the work tree back to the rollback commit's snapshot,
// HEAD back to the original commit and the index back to what was staged.
func (r *runner) restorePreRun(ctx context.Context, head gitops.Head, base gitops.SHA) error {
	if base != "" {
		// Files the run created and never committed are saved in the
		// snapshot; reset --hard would leave them behind.
		changes, err := r.repo.Status(ctx)
		if err != nil {
			return err
		}
		var created []string
		for _, c := range changes {
			if c.Index == '?' {
				created = append(created, c.Path)
			}
		}
		if err := r.repo.Discard(ctx, nil, created); err != nil {
			return err
		}
		if err := r.repo.ResetHard(ctx, base); err != nil {
			return err
		}
	}
	var err error
	switch {
	// IndexAtHead: the rollback's staging may have run without its commit
	// landing, and the index must hold OrigHead's tree again.
	case r.st.OrigHead == "" && (head.SHA != "" || base != "" || r.st.IndexAtHead):
		err = r.repo.Unborn(ctx, r.st.Branch)
	case r.st.OrigHead != "" && (head.SHA != r.st.OrigHead || base != "" || r.st.IndexAtHead):
		err = r.repo.ResetMixed(ctx, r.st.OrigHead)
	}
	if err != nil {
		return err
	}
	if r.st.OrigIndex != "" {
		return r.repo.Index().Load(ctx, r.st.OrigIndex)
	}
	return nil
}

// saveIndex records the index before the rollback commit stages everything,
// so abort can restore what was staged and what was not.
func (r *runner) saveIndex(ctx context.Context) error {
	id := r.st.RunID
	sha, err := r.repo.Index().Save(ctx, fmt.Sprintf("planx: index before run %s\n\n%s: %s\n", id, record.TrailerRun, id), r.st.OrigHead)
	if err != nil {
		return err
	}
	if err := r.repo.Refs().Update(ctx, "refs/planx/runs/"+id+"/index", sha, "", "planx: index before the run"); err != nil {
		return err
	}
	r.st.OrigIndex = sha
	return nil
}
