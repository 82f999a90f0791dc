package recovery

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/rewind"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// UndoResult says what `planx undo` put back and where the run is kept.
type UndoResult struct {
	RunID    string
	Plan     string     // the run's plan, repo-relative
	Restored gitops.SHA // HEAD now ("" when the branch is unborn again)
	Ref      string     // keeps the run's commits
	// Uncommitted are the files of the user's uncommitted work the
	// rollback commit had taken, uncommitted again.
	Uncommitted []string
}

// undoSearch bounds the walk back from HEAD for the run to undo: a run
// further down the branch than this has long been built on.
const undoSearch = 200

// Undo takes the last finished run off the branch it ran on (see
// rewind.Undo). It refuses while a run is in progress, when the branch
// moved past the run's last commit (the commits made since would go with
// it), and when the work tree holds changes (they would be overwritten).
func Undo(ctx context.Context, dir string) (*UndoResult, error) {
	repo, err := gitops.Open(ctx, cmp.Or(dir, "."))
	if err != nil {
		return nil, err
	}
	if st, err := runstate.Load(repo); err != nil {
		return nil, err
	} else if st != nil {
		return nil, fmt.Errorf("%w: run %s of %s has not ended (%s at %s); undo takes back a run that finished: finish this one with `planx resume`, or take it out with `planx abort`",
			runstate.ErrRunInProgress, st.RunID, st.PlanPath, st.Status, st.Current)
	}
	lk, err := runstate.Acquire(repo, "undo")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	head, err := repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	if head.Detached || head.SHA == "" {
		return nil, fmt.Errorf("%w: HEAD is not on a branch with commits; switch to the branch the run finished on, then `planx undo`", gitops.ErrRepoState)
	}
	f, err := lastFinished(ctx, repo, head)
	if err != nil {
		return nil, err
	}
	st := f.State
	if head.Branch != st.Branch {
		return nil, fmt.Errorf("%w: run %s finished on branch %q but HEAD is on %q; `git switch %s`, then `planx undo`",
			gitops.ErrRepoState, st.RunID, st.Branch, head.Branch, st.Branch)
	}
	if err := undoClean(ctx, repo); err != nil {
		return nil, err
	}
	res := &UndoResult{RunID: st.RunID, Plan: st.PlanPath, Restored: st.OrigHead}
	if res.Uncommitted, err = RollbackTook(ctx, repo, st); err != nil {
		return nil, err
	}
	if res.Ref, err = rewind.Undo(ctx, repo, st, head); err != nil {
		return nil, fmt.Errorf("undo run %s: %w (its commits are kept at %s)", st.RunID, err, res.Ref)
	}
	return res, runstate.DropFinished(repo, st.RunID)
}

// lastFinished finds the finished run whose last commit is HEAD; it
// refuses, naming them, when commits of someone else's follow it.
func lastFinished(ctx context.Context, repo *gitops.Repo, head gitops.Head) (*runstate.Finished, error) {
	cs, err := repo.History().Log(ctx, head.SHA, "", undoSearch)
	if err != nil {
		return nil, err
	}
	for i, c := range cs {
		id := record.TrailerOf(c.Message, record.TrailerRun)
		if id == "" {
			continue
		}
		f, err := runstate.LoadFinished(repo, id)
		if err != nil {
			return nil, err
		}
		if f == nil {
			continue // an undone, aborted or pruned run's commit
		}
		if f.Last == head.SHA {
			return f, nil
		}
		return nil, movedPast(f, cs[:i])
	}
	return nil, fmt.Errorf("%w: no finished planx run to undo on %s: none of its last %d commits is the end of a run planx keeps (a run `planx abort` took out is undone already; `planx prune` drops old runs' records)",
		gitops.ErrRepoState, head.Branch, undoSearch)
}

// movedPast is the refusal when later commits sit on the run's last one.
func movedPast(f *runstate.Finished, later []gitops.Commit) error {
	var b strings.Builder
	for _, c := range later {
		fmt.Fprintf(&b, "\n  %s %s (%s)", c.SHA.Short(), c.Subject, c.Author)
	}
	return fmt.Errorf("%w: the branch moved past run %s's last commit %s: undo would take %d later commit(s) with it:%s\n"+
		"move them to another branch first (`git branch keep-mine && git reset --keep %s`), then `planx undo`, then cherry-pick them back if you want them",
		gitops.ErrRepoState, f.State.RunID, f.Last.Short(), len(later), b.String(), f.Last.Short())
}

// undoClean refuses a work tree with changes: the reset to the state
// before the run would overwrite them.
func undoClean(ctx context.Context, repo *gitops.Repo) error {
	changes, err := repo.Status(ctx)
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	var paths []string
	for _, c := range changes {
		paths = append(paths, c.Path)
	}
	return fmt.Errorf("%w: the work tree has changes made since the run (%s); undo would overwrite them: commit them or `git stash -u` them, then `planx undo`",
		gitops.ErrRepoState, NameSome(paths, 10))
}

// RollbackTook lists the files of the user's uncommitted work the run's
// rollback commit took (what differs between it and the commit before).
func RollbackTook(ctx context.Context, repo *gitops.Repo, st *runstate.State) ([]string, error) {
	if st.Base == "" {
		return nil, errors.New("undo: the run's record has no rollback commit")
	}
	return repo.History().ChangedFiles(ctx, st.OrigHead, st.Base)
}

// NameSome joins up to n paths, saying how many more there are.
func NameSome(paths []string, n int) string {
	s := strings.Join(paths[:min(len(paths), n)], ", ")
	if len(paths) > n {
		s += fmt.Sprintf(" and %d more", len(paths)-n)
	}
	return s
}
