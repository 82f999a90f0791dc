package rewind

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// rewind takes a stopped run back out of the repository for Abort, keeping
// under refs what it takes out: it needs only the repository, the run's
// state and its log.
type rewind struct {
	repo *gitops.Repo
	st   *runstate.State
	log  *execlog.Log // nil when the run stopped before it had one
}

// Result says where an aborted run's traces are kept.
type Result struct {
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
	Wave []Kept
	// Edited are paths a person changed after the run stopped, taken out
	// of the work tree with the rest and kept under WorkRef.
	Edited []string
	// InTheWay are the paths of a person's that the landing of the wave in
	// flight stopped on (changed while the wave ran), taken out with the
	// rest and kept under WorkRef.
	InTheWay []string
	// KeptConfig says the person's edit of .planx.yaml made after the
	// stop is left in the work tree, for the next run.
	KeptConfig bool
}

// Options are what Run needs of the stopped run.
type Options struct {
	Repo  *gitops.Repo
	State *runstate.State
	Log   *execlog.Log // nil when the run stopped before it had one
	Head  gitops.Head  // HEAD at the abort, on the run's branch
	// StopTree is the tree a person's edits after the stop are counted
	// from; "" when planx cannot tell them from the attempt's.
	StopTree gitops.SHA
	// KeepConfig says the person's .planx.yaml edit is put back after the
	// rewind (by the caller): it is not named among the edits taken out.
	KeepConfig bool
}

// Run returns the repository to the state before the run: HEAD at the
// original commit, the former uncommitted work restored as uncommitted
// changes and the index as it was (staged stays staged). It works from any
// state a run can stop in, including before the rollback commit exists and
// after an executor reset the branch below it. Nothing is lost: the commits
// on the branch stay reachable under refs/planx/runs/<run-id>/head, the work
// tree as it was at the abort under .../aborted, and the execution log is
// copied under .git/planx/runs/<run-id>/.
func Run(ctx context.Context, o Options) (*Result, error) {
	u := &rewind{repo: o.Repo, st: o.State, log: o.Log}
	base := u.st.Base
	if base == "" {
		base = u.rollbackAt(ctx, o.Head) // a crash kept planx from recording it
	}
	res := &Result{RunID: u.st.RunID, Restored: u.st.OrigHead, KeptConfig: o.KeepConfig}
	if err := u.keepTraces(ctx, o.Head, base, res); err != nil {
		return nil, err
	}
	// Without a rollback commit the work tree is left as it is (it is the
	// work from before the run, a person's edits since included): nothing
	// is taken out of it to name.
	if base != "" {
		if err := u.editedSinceStop(ctx, o.StopTree, res); err != nil {
			return nil, err
		}
	}
	if err := u.keepWave(ctx, res); err != nil {
		return nil, err
	}
	if err := u.restorePreRun(ctx, o.Head, base); err != nil {
		return nil, err
	}
	return res, nil
}

// rollbackAt returns HEAD when it is this run's rollback commit, else "".
func (u *rewind) rollbackAt(ctx context.Context, head gitops.Head) gitops.SHA {
	if head.SHA == "" || head.SHA == u.st.OrigHead {
		return ""
	}
	if ok, _ := IsRollbackOf(ctx, u.repo, head.SHA, u.st.RunID); ok {
		return head.SHA
	}
	return ""
}

// IsRollbackOf reports whether sha is the rollback commit of run runID.
func IsRollbackOf(ctx context.Context, repo *gitops.Repo, sha gitops.SHA, runID string) (bool, error) {
	cs, err := repo.History().Log(ctx, sha, "", 1)
	if err != nil || len(cs) != 1 {
		return false, err
	}
	ts := record.ParseTrailers(cs[0].Message)
	return record.ValueOf(ts, record.TrailerRun) == runID && record.ValueOf(ts, record.TrailerRollback) == "true", nil
}

// keepTraces puts under refs what the abort is about to take out of the
// branch and the work tree, and copies the log.
func (u *rewind) keepTraces(ctx context.Context, head gitops.Head, base gitops.SHA, res *Result) error {
	id := u.st.RunID
	if head.SHA != "" && head.SHA != u.st.OrigHead {
		res.HeadRef = record.HeadRef(id)
		if err := u.repo.Refs().Update(ctx, res.HeadRef, head.SHA, "", "planx: abort keeps the run's commits"); err != nil {
			return err
		}
		from := base
		if from == "" {
			from = u.st.OrigHead
		}
		if from != "" {
			if ok, err := u.repo.History().IsAncestor(ctx, from, head.SHA); err == nil && ok {
				cs, err := u.repo.History().Log(ctx, head.SHA, from, 0)
				if err != nil {
					return err
				}
				for _, c := range cs {
					if record.TrailerOf(c.Message, record.TrailerRun) != id {
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
	snap, err := u.repo.Commits().SnapshotAll(ctx, fmt.Sprintf("planx: work tree at abort of run %s\n\n%s: %s\n", id, record.TrailerRun, id), head.SHA)
	if err != nil {
		return err
	}
	res.WorkRef = record.AbortedRef(id)
	return u.repo.Refs().Update(ctx, res.WorkRef, snap, "", "planx: work tree at abort")
}
