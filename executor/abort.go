package executor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/progress"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runplan"
	"github.com/planx-dev/planx/runstate"
)

// rewind takes a stopped run back out of the repository for Abort, keeping
// under refs what it takes out: it needs only the repository, the run's
// state and its log.
type rewind struct {
	repo *gitops.Repo
	st   *runstate.State
	log  *execlog.Log // nil when the run stopped before it had one
}

// AbortResult says where an aborted run's traces are kept.
type AbortResult struct {
	RunID    string
	HeadRef  string // the run's commits ("" when HEAD never moved)
	WorkRef  string // the work tree as it was at the abort ("" when clean)
	LogCopy  string // absolute path of the execution log's copy ("" when the run had none)
	Restored gitops.SHA
	// Uncommitted says the work tree, put back, holds uncommitted changes
	// (those from before the run); false when it is clean.
	Uncommitted bool
	// Later are commits on the branch above the rollback commit that are
	// not the run's (a person committed after the stop): kept under
	// HeadRef, listed so nobody has to discover them missing.
	Later []gitops.Commit
	// Wave is the work of parallel waves kept under refs (see keepWave).
	Wave []KeptWork
	// Edited are paths a person changed after the run stopped, taken out
	// of the work tree with the rest and kept under WorkRef.
	Edited []string
	// KeptConfig says the person's edit of .planx.yaml made after the
	// stop is left in the work tree, for the next run.
	KeptConfig bool
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
	repo, err := gitops.Open(ctx, cmp.Or(ro.Dir, "."))
	if err != nil {
		return nil, err
	}
	// Nothing to abort: say so before the lock, whose file would create
	// .git/planx/ in a repository that never ran planx.
	if _, err := os.Stat(runstate.Path(repo)); errors.Is(err, fs.ErrNotExist) {
		return nil, errNoRun
	}
	lk, err := runstate.Acquire(repo, "abort")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	st, err := runstate.Load(repo)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, errNoRun
	}
	// The runner only finds the run's files (pids, the watch record).
	r := &runner{repo: repo, st: st, out: progress.New(ro.Output), Setup: &runplan.Setup{}}
	u := &rewind{repo: repo, st: st, log: st.Log}
	r.pids().CleanOrphans(r.out)
	if what := r.watchFile().CheckInterrupted(st.Current); what != "" {
		r.out.Warn(st.Current, what)
	}
	r.watchFile().Drop()
	head, err := repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	if head.Branch != st.Branch {
		return nil, fmt.Errorf("%w: the run was on branch %q but HEAD is on %q; %s",
			gitops.ErrRepoState, st.Branch, headName(head), switchBack(st.Branch, "`planx abort`"))
	}
	base := st.Base
	if base == "" {
		base = u.rollbackAt(ctx, head) // a crash kept planx from recording it
	}
	// Content staged apart from the work tree since the stop lives only in
	// the index, which the abort replaces.
	if err := r.stops().KeepStagedApart(ctx, st.OrigIndex); err != nil {
		return nil, err
	}
	conf, err := configToKeep(ctx, repo, st, head.SHA)
	if err != nil {
		return nil, err
	}
	res := &AbortResult{RunID: st.RunID, Restored: st.OrigHead, KeptConfig: conf != nil}
	if err := u.keepTraces(ctx, head, base, res); err != nil {
		return nil, err
	}
	if err := u.editedSinceStop(ctx, head.SHA, conf, res); err != nil {
		return nil, err
	}
	if err := u.keepWave(ctx, res); err != nil {
		return nil, err
	}
	if err := u.restorePreRun(ctx, head, base); err != nil {
		return nil, err
	}
	if conf != nil {
		if err := conf.putBack(repo.Root); err != nil {
			return nil, fmt.Errorf("%w (it is kept at %s)", err, res.WorkRef)
		}
	}
	if err := endRun(repo); err != nil {
		return nil, err
	}
	if dirty, err := repo.Dirty(ctx); err == nil {
		res.Uncommitted = dirty
	}
	return res, nil
}

// rollbackAt returns HEAD when it is this run's rollback commit, else "".
func (u *rewind) rollbackAt(ctx context.Context, head gitops.Head) gitops.SHA {
	if head.SHA == "" || head.SHA == u.st.OrigHead {
		return ""
	}
	if ok, _ := isRollbackOf(ctx, u.repo, head.SHA, u.st.RunID); ok {
		return head.SHA
	}
	return ""
}

// isRollbackOf reports whether sha is the rollback commit of run runID.
func isRollbackOf(ctx context.Context, repo *gitops.Repo, sha gitops.SHA, runID string) (bool, error) {
	cs, err := repo.History().Log(ctx, sha, "", 1)
	if err != nil || len(cs) != 1 {
		return false, err
	}
	return cs[0].Trailer(record.TrailerRun) == runID && cs[0].Trailer(record.TrailerRollback) == "true", nil
}

// keepTraces puts under refs what the abort is about to take out of the
// branch and the work tree, and copies the log.
func (u *rewind) keepTraces(ctx context.Context, head gitops.Head, base gitops.SHA, res *AbortResult) error {
	id := u.st.RunID
	if head.SHA != "" && head.SHA != u.st.OrigHead {
		res.HeadRef = record.RunRef(id, "head")
		if err := u.repo.Refs().Update(ctx, res.HeadRef, head.SHA, "", "planx: abort keeps the run's commits"); err != nil {
			return err
		}
		if from := cmp.Or(string(base), string(u.st.OrigHead)); from != "" {
			if ok, err := u.repo.History().IsAncestor(ctx, gitops.SHA(from), head.SHA); err == nil && ok {
				cs, err := u.repo.History().Log(ctx, head.SHA, gitops.SHA(from), 0)
				if err != nil {
					return err
				}
				for _, c := range cs {
					if c.Trailer(record.TrailerRun) != id {
						res.Later = append(res.Later, c)
					}
				}
			}
		}
	}
	if u.log != nil {
		u.log.Status, u.log.Finished = record.RunAborted, time.Now().UTC()
		u.log.Issues = append(u.log.Issues, execlog.Issue{Task: string(u.st.Current), What: "run aborted by `planx abort`", Time: time.Now().UTC()})
		if base != "" {
			// Before the rollback commit the log was never written: writing
			// it now would leave a file the run did not leave.
			if err := u.log.WriteFile(u.repo.Root); err != nil {
				return err
			}
		}
		res.LogCopy = filepath.Join(runstate.RunDir(u.repo, id), "execution-log.md")
		if err := os.MkdirAll(filepath.Dir(res.LogCopy), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(res.LogCopy, u.log.Render(), 0o644); err != nil {
			return fmt.Errorf("keep the execution log: %w", err)
		}
	}
	dirty, err := u.repo.Dirty(ctx)
	if err != nil {
		return err
	}
	// A change to an assume-unchanged file is not dirty to git: with such
	// files the tree is recorded anyway, their bytes included.
	if !dirty && (u.st.OrigMarks == nil || len(u.st.OrigMarks.AssumeUnchanged) == 0) {
		return nil
	}
	snap, err := u.repo.SnapshotAll(ctx, fmt.Sprintf("planx: work tree at abort of run %s\n\n%s: %s\n", id, record.TrailerRun, id), head.SHA)
	if err != nil {
		return err
	}
	res.WorkRef = record.RunRef(id, "aborted")
	return u.repo.Refs().Update(ctx, res.WorkRef, snap, "", "planx: work tree at abort")
}

// restorePreRun puts the work tree back to the rollback commit's snapshot,
// HEAD back to the original commit and the index back to what was staged.
func (u *rewind) restorePreRun(ctx context.Context, head gitops.Head, base gitops.SHA) error {
	if base != "" {
		// Files the run created and never committed are saved in the
		// snapshot; reset --hard would leave them behind.
		changes, err := u.repo.Status(ctx)
		if err != nil {
			return err
		}
		var created []string
		for _, c := range changes {
			if c.Index == '?' {
				created = append(created, c.Path)
			}
		}
		if err := u.repo.Discard(ctx, nil, created); err != nil {
			return err
		}
		if err := u.repo.ResetHard(ctx, base); err != nil {
			return err
		}
	}
	var err error
	switch {
	// IndexAtHead: the rollback's staging may have run without its commit
	// landing, and the index must hold OrigHead's tree again.
	case u.st.OrigHead == "" && (head.SHA != "" || base != "" || u.st.IndexAtHead):
		err = u.repo.Unborn(ctx, u.st.Branch)
	case u.st.OrigHead != "" && (head.SHA != u.st.OrigHead || base != "" || u.st.IndexAtHead):
		err = u.repo.ResetMixed(ctx, u.st.OrigHead)
	}
	if err != nil {
		return err
	}
	if u.st.OrigIndex != "" {
		if err := u.repo.Index().Load(ctx, u.st.OrigIndex); err != nil {
			return err
		}
	}
	return u.restoreMarks(ctx)
}

// restoreMarks puts back what the index held beyond its tree: the
// assume-unchanged files' pre-run bytes and their flag, the skip-worktree
// flags and the intent-to-add entries.
func (u *rewind) restoreMarks(ctx context.Context) error {
	m := u.st.OrigMarks
	if m == nil || m.Empty() {
		return nil
	}
	if u.st.OrigHidden != "" {
		if err := u.repo.RestoreWorktree(ctx, u.st.OrigHidden, m.AssumeUnchanged); err != nil {
			return err
		}
	}
	return u.repo.Index().PutMarks(ctx, *m)
}
