package wave

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
)

// RestoreLog puts the execution log at path (relative to repo's root, with
// slashes) in the work tree back to what commit base has, removing it when
// base has none, before a wave's chain lands: a stop writes the log there,
// and the commits being landed carry it whole, so the copy in the way of
// the work tree's update is planx's own and nothing is lost.
func RestoreLog(ctx context.Context, repo *gitops.Repo, base gitops.SHA, path string) error {
	file := filepath.Join(repo.Root, filepath.FromSlash(path))
	b, err := repo.History().ShowFile(ctx, base, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	case err != nil:
		return err
	}
	if cur, err := os.ReadFile(file); err == nil && string(cur) == string(b) {
		return nil
	}
	return os.WriteFile(file, b, 0o644)
}

// advance moves the user's work tree and index, then the branch, from the
// wave's base to tip. The landing ref names tip from before the first file
// is written until the branch has moved, so that a stop in between (a
// SIGKILL, a crash, a person's commit that wins the branch) is found by
// the next command and taken back (Unland). Once git has updated the work
// tree the branch moves even when the run is being interrupted: the two
// move together, or the landing ref says they did not.
func (l *Landing) advance(ctx context.Context, tip gitops.SHA) error {
	ref := record.LandingRef(l.State.RunID)
	if err := l.Repo.Refs().Update(ctx, ref, tip, "", "planx: landing wave"); err != nil {
		return fmt.Errorf("record the landing: %w", err)
	}
	l.Fault.At("before-advance")
	if err := l.Repo.Landing().Tree(ctx, l.Base, tip); err != nil {
		// git refuses (a local change in the way) before it writes a
		// file, and planx never stops a git midway: nothing to take back.
		return errors.Join(err, l.Repo.Refs().Delete(context.WithoutCancel(ctx), ref))
	}
	l.Fault.At("after-read-tree")
	ctx = context.WithoutCancel(ctx)
	if err := l.Repo.Refs().Update(ctx, "HEAD", tip, l.Base, "planx: integrate wave"); err != nil {
		// A person's commit won the branch: the work tree goes back to
		// it, and the wave lands again on it when the run goes on.
		if _, uerr := Unland(ctx, l.Repo, l.State.RunID); uerr != nil {
			return errors.Join(err, uerr)
		}
		if errors.Is(err, gitops.ErrHeadMoved) {
			head, _ := l.Repo.Refs().Resolve(ctx, "HEAD")
			return fmt.Errorf("%w: a commit planx did not make (git log %s..%s) took the branch while wave %d landed; the work tree is back as that commit has it, and `planx resume` lands the wave on it",
				gitops.ErrHeadMoved, l.Base.Short(), head.Short(), l.Number)
		}
		return err
	}
	l.Fault.At("after-branch")
	// A ref left behind is dropped by the next command, which finds the
	// branch at it and nothing to take back.
	_ = l.Repo.Refs().Delete(ctx, ref)
	return nil
}

// Unland finishes with a landing of the run runID that a stop cut (its
// landing ref is left): when the branch did not reach the landing's commit,
// what the landing wrote to the index and work tree is taken back
// (gitops.Landing.Retract), so that the wave lands again from where the branch
// is, as after a stop before its landing; then the ref goes. It returns
// the paths it put back (none when there was no cut landing).
func Unland(ctx context.Context, repo *gitops.Repo, runID string) ([]string, error) {
	ref := record.LandingRef(runID)
	tip, err := repo.Refs().Resolve(ctx, ref)
	if err != nil || tip == "" {
		return nil, err
	}
	back, err := repo.Landing().Retract(ctx, tip)
	if err != nil {
		return nil, fmt.Errorf("take back the cut landing of %s: %w", tip.Short(), err)
	}
	return back, repo.Refs().Delete(ctx, ref)
}
