package executor

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

// rollback makes a run's first commit, the snapshot of the uncommitted work
// that `planx abort` returns to, and records it as the run's base. It
// also finishes one a crash interrupted. What it needs of the run is set
// when it is made (rollbackOf); what it changes is the run state and log.
type rollback struct {
	repo   *gitops.Repo
	st     *runstate.State
	log    *execlog.Log
	fault  fault.Hook
	survey *gitops.Survey // the preflight's status of the tree; nil when stale or on resume
	head   gitops.SHA     // HEAD the run starts from ("" when unborn)
	// porcelain: the commit goes through git commit (commitpath.go).
	porcelain      bool
	topic, planRel string
	checks         []execlog.Check // the preflight's, logged with the commit
}

// rollbackOf is the run's rollback, as the run stands now.
func (r *runner) rollbackOf() *rollback {
	return &rollback{repo: r.repo, st: r.st, log: r.log, fault: r.fault, survey: r.survey, head: r.head.SHA,
		porcelain: r.rollbackPorcelain, topic: r.Plan.Topic, planRel: r.planRel, checks: r.preChecks}
}

// make saves what abort needs to put the index back, then commits.
func (b *rollback) make(ctx context.Context) (gitops.SHA, error) {
	// Saved first so that a crash during the commit leaves a run that
	// `planx resume` can find (and adopt the commit if it landed).
	b.st.Status = record.RunStarting
	if b.survey != nil && !b.survey.Staged() {
		// Nothing staged: abort's reset to the original commit restores
		// the index as it was, no snapshot needed.
		b.st.IndexAtHead = true
	} else if err := b.saveIndex(ctx); err != nil {
		return "", err
	}
	if err := b.saveMarks(ctx); err != nil {
		return "", err
	}
	if err := b.st.Save(b.repo); err != nil {
		return "", err
	}
	b.fault.At("before-rollback")
	return b.commit(ctx)
}

// commit commits the snapshot and records it as the run's base.
func (b *rollback) commit(ctx context.Context) (gitops.SHA, error) {
	if b.survey == nil || len(b.survey.Changes) > 0 {
		// A clean tree (the survey saw no change) has nothing to stage:
		// the rollback commit is HEAD's tree, and a second walk of the
		// tree would find what the first did.
		if err := b.repo.Index().StageAll(ctx); err != nil {
			return "", fmt.Errorf("rollback commit: %w", err)
		}
	}
	b.fault.At("after-rollback-stage")
	changes, err := b.snapshotted(ctx)
	if err != nil {
		return "", fmt.Errorf("rollback commit: %w", err)
	}
	msg := ledger.RollbackMessage(b.topic, b.planRel, b.st.RunID, changes)
	var sha gitops.SHA
	if b.porcelain {
		// Hooks are skipped for the snapshot: the user's work in progress
		// may not pass them, and refusing to save it would defeat the purpose.
		sha, err = b.repo.Commits().Commit(ctx, msg, gitops.CommitOptions{AllowEmpty: true, NoVerify: true})
	} else if b.survey != nil && len(b.survey.Changes) == 0 && b.head != "" {
		// A clean tree: the index is HEAD's tree, no need to write it.
		// The run's base ref is created in the same transaction as HEAD moves.
		sha, err = b.repo.Commits().CommitUnchanged(ctx, msg, b.head, "HEAD", baseRef(b.st.RunID))
	} else {
		sha, err = b.repo.Commits().CommitIndex(ctx, msg, b.head, "HEAD", baseRef(b.st.RunID))
	}
	if err != nil {
		return "", fmt.Errorf("rollback commit: %w", err)
	}
	b.fault.At("after-rollback-commit")
	return sha, b.record(ctx, sha, !b.porcelain)
}

// snapshotted lists the uncommitted work the rollback commit takes, for
// its message: what the preflight's survey saw, or, when a question asked
// since made the survey stale, what the index now holds beyond HEAD (all
// of it is staged by then).
func (b *rollback) snapshotted(ctx context.Context) ([]gitops.Change, error) {
	if b.survey != nil {
		return b.survey.Changes, nil
	}
	return b.repo.Status(ctx)
}

// record keeps the rollback commit in a ref and in the run state.
func (b *rollback) record(ctx context.Context, sha gitops.SHA, refDone bool) error {
	if !refDone {
		if err := b.repo.Refs().Update(ctx, baseRef(b.st.RunID), sha, "", "planx: run base"); err != nil {
			return fmt.Errorf("record run base: %w", err)
		}
	}
	b.fault.At("after-rollback-ref")
	b.log.Preflight = append(b.checks, execlog.Check{Name: "rollback commit", OK: true, Detail: string(sha)})
	b.st.Base, b.log.StartCommit = sha, string(sha)
	b.st.Status = record.RunRunning
	return b.st.Save(b.repo)
}

// adopt finishes a rollback a crash interrupted: a rollback commit of
// this run at head is adopted, otherwise the snapshot is made now.
func (b *rollback) adopt(ctx context.Context, head gitops.SHA) error {
	if b.st.Base != "" {
		return nil
	}
	if head != "" {
		ok, err := rewind.IsRollbackOf(ctx, b.repo, head, b.st.RunID)
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
func (b *rollback) saveIndex(ctx context.Context) error {
	id := b.st.RunID
	sha, err := b.repo.Index().Save(ctx, fmt.Sprintf("planx: index before run %s\n\n%s: %s\n", id, record.TrailerRun, id), b.st.OrigHead)
	if err != nil {
		return err
	}
	if err := b.repo.Refs().Update(ctx, record.RunRef(id, "index"), sha, "", "planx: index before the run"); err != nil {
		return err
	}
	b.st.OrigIndex = sha
	return nil
}

// saveMarks records what the index holds beyond its tree (see
// State.OrigMarks): the flagged entries the preflight listed, the
// intent-to-add entries, and the work-tree bytes of the assume-unchanged
// files, which the rollback commit does not see.
func (b *rollback) saveMarks(ctx context.Context) error {
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
	m := gitops.MarksOf(b.st.Hidden, ita)
	if m.Empty() {
		return nil
	}
	b.st.OrigMarks = &m
	if len(m.AssumeUnchanged) == 0 {
		return nil
	}
	id := b.st.RunID
	sha, err := b.repo.Commits().SnapshotAll(ctx, fmt.Sprintf("planx: assume-unchanged files before run %s\n\n%s: %s\n", id, record.TrailerRun, id),
		b.st.OrigHead, m.AssumeUnchanged...)
	if err != nil {
		return err
	}
	if err := b.repo.Refs().Update(ctx, record.RunRef(id, "hidden"), sha, "", "planx: assume-unchanged files before the run"); err != nil {
		return err
	}
	b.st.OrigHidden = sha
	return nil
}

// baseRef is the ref that keeps run runID's rollback commit.
func baseRef(runID string) string { return record.RunRef(runID, "base") }
