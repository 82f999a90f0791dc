package land

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/rewind"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// Rollback makes a run's first commit, the snapshot of the uncommitted work
// that `planx abort` returns to, and records it as the run's base. It
// also finishes one a crash interrupted. What it needs of the run is set
// when it is made; what it changes is the run state and log.
type Rollback struct {
	Repo   *gitops.Repo
	State  *runstate.State
	Log    *execlog.Log
	Fault  fault.Hook
	Survey *gitops.Survey // the preflight's status of the tree; nil when stale or on resume
	Head   gitops.SHA     // HEAD the run starts from ("" when unborn)
	// Porcelain: the commit goes through git commit (CommitPath).
	Porcelain      bool
	Topic, PlanRel string
	Checks         []execlog.Check // the preflight's, logged with the commit
}

// Make saves what abort needs to put the index back, then commits.
func (b *Rollback) Make(ctx context.Context) (gitops.SHA, error) {
	// Saved first so that a crash during the commit leaves a run that
	// `planx resume` can find (and adopt the commit if it landed).
	b.State.Status = record.RunStarting
	if b.Survey != nil && !b.Survey.Staged() {
		// Nothing staged: abort's reset to the original commit restores
		// the index as it was, no snapshot needed.
		b.State.IndexAtHead = true
	} else if err := b.saveIndex(ctx); err != nil {
		return "", err
	}
	if err := b.saveMarks(ctx); err != nil {
		return "", err
	}
	if err := b.State.Save(b.Repo); err != nil {
		return "", err
	}
	b.Fault.At("before-rollback")
	return b.commit(ctx)
}

// commit commits the snapshot and records it as the run's base.
func (b *Rollback) commit(ctx context.Context) (gitops.SHA, error) {
	if b.Survey == nil || len(b.Survey.Changes) > 0 {
		// A clean tree (the survey saw no change) has nothing to stage:
		// the rollback commit is HEAD's tree, and a second walk of the
		// tree would find what the first did.
		if err := b.Repo.Index().StageAll(ctx); err != nil {
			return "", fmt.Errorf("rollback commit: %w", err)
		}
	}
	b.Fault.At("after-rollback-stage")
	changes, err := b.snapshotted(ctx)
	if err != nil {
		return "", fmt.Errorf("rollback commit: %w", err)
	}
	msg := ledger.RollbackMessage(b.Topic, b.PlanRel, b.State.RunID, changes)
	var sha gitops.SHA
	if b.Porcelain {
		// Hooks are skipped for the snapshot: the user's work in progress
		// may not pass them, and refusing to save it would defeat the purpose.
		sha, err = b.Repo.Commits().Commit(ctx, msg, gitops.CommitOptions{AllowEmpty: true, NoVerify: true})
	} else if b.Survey != nil && len(b.Survey.Changes) == 0 && b.Head != "" {
		// A clean tree: the index is HEAD's tree, no need to write it.
		// The run's base ref is created in the same transaction as HEAD moves.
		sha, err = b.Repo.Commits().CommitUnchanged(ctx, msg, b.Head, "HEAD", baseRef(b.State.RunID))
	} else {
		sha, err = b.Repo.Commits().CommitIndex(ctx, msg, b.Head, "HEAD", baseRef(b.State.RunID))
	}
	if err != nil {
		return "", fmt.Errorf("rollback commit: %w", err)
	}
	b.Fault.At("after-rollback-commit")
	return sha, b.record(ctx, sha, !b.Porcelain)
}

// snapshotted lists the uncommitted work the rollback commit takes, for
// its message: what the preflight's survey saw, or, when a question asked
// since made the survey stale, what the index now holds beyond HEAD (all
// of it is staged by then).
func (b *Rollback) snapshotted(ctx context.Context) ([]gitops.Change, error) {
	if b.Survey != nil {
		return b.Survey.Changes, nil
	}
	return b.Repo.Status(ctx)
}

// record keeps the rollback commit in a ref and in the run state.
func (b *Rollback) record(ctx context.Context, sha gitops.SHA, refDone bool) error {
	if !refDone {
		if err := b.Repo.Refs().Update(ctx, baseRef(b.State.RunID), sha, "", "planx: run base"); err != nil {
			return fmt.Errorf("record run base: %w", err)
		}
	}
	b.Fault.At("after-rollback-ref")
	b.Log.Preflight = append(b.Checks, execlog.Check{Name: "rollback commit", OK: true, Detail: string(sha)})
	b.State.Base, b.Log.StartCommit = sha, string(sha)
	b.State.Status = record.RunRunning
	return b.State.Save(b.Repo)
}

// Adopt finishes a rollback a crash interrupted: a rollback commit of
// this run at head is adopted, otherwise the snapshot is made now.
func (b *Rollback) Adopt(ctx context.Context, head gitops.SHA) error {
	if b.State.Base != "" {
		return nil
	}
	if head != "" {
		ok, err := rewind.IsRollbackOf(ctx, b.Repo, head, b.State.RunID)
		if err != nil {
			return err
		}
		if ok {
			return b.record(ctx, head, false)
		}
	}
	_, err := b.commit(ctx)
	return err
}

// saveIndex records the index before the rollback commit stages everything,
// so abort can restore what was staged and what was not.
func (b *Rollback) saveIndex(ctx context.Context) error {
	id := b.State.RunID
	sha, err := b.Repo.Index().Save(ctx, fmt.Sprintf("planx: index before run %s\n\n%s: %s\n", id, record.TrailerRun, id), b.State.OrigHead)
	if err != nil {
		return err
	}
	if err := b.Repo.Refs().Update(ctx, record.RunRef(id, "index"), sha, "", "planx: index before the run"); err != nil {
		return err
	}
	b.State.OrigIndex = sha
	return nil
}

// saveMarks records what the index holds beyond its tree (see
// State.OrigMarks): the flagged entries the preflight listed, the
// intent-to-add entries, and the work-tree bytes of the assume-unchanged
// files, which the rollback commit does not see.
func (b *Rollback) saveMarks(ctx context.Context) error {
	changes, err := b.snapshotted(ctx)
	if err != nil {
		return err
	}
	var ita []string
	for _, c := range changes {
		if c.Index == '.' && c.Work == 'A' {
			ita = append(ita, c.Path)
		}
	}
	m := runstate.MarksOf(b.State.Hidden, ita)
	if m.Empty() {
		return nil
	}
	b.State.OrigMarks = &m
	if len(m.AssumeUnchanged) == 0 {
		return nil
	}
	id := b.State.RunID
	sha, err := b.Repo.Commits().SnapshotAll(ctx, fmt.Sprintf("planx: assume-unchanged files before run %s\n\n%s: %s\n", id, record.TrailerRun, id),
		b.State.OrigHead, m.AssumeUnchanged...)
	if err != nil {
		return err
	}
	if err := b.Repo.Refs().Update(ctx, record.RunRef(id, "hidden"), sha, "", "planx: assume-unchanged files before the run"); err != nil {
		return err
	}
	b.State.OrigHidden = sha
	return nil
}

// baseRef is the ref that keeps run runID's rollback commit.
func baseRef(runID string) string { return record.RunRef(runID, "base") }
