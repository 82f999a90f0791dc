package wave

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/attempt"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
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
func (l *Landing) advance(ctx context.Context, id planparse.TaskID, tip gitops.SHA) error {
	if err := l.clear(ctx, id, tip); err != nil {
		return err
	}
	ref := record.LandingRef(l.State.RunID)
	if err := l.Repo.Refs().Update(ctx, ref, tip, "", "planx: landing wave"); err != nil {
		return fmt.Errorf("record the landing: %w", err)
	}
	l.Fault.At("before-advance")
	if err := l.Repo.Landing().Tree(ctx, l.Base, tip); err != nil {
		// git refuses (a local change in the way) before it writes a
		// file, and planx never stops a git midway: nothing to take back.
		// A person's change made since clear looked is named as there.
		err = errors.Join(err, l.Repo.Refs().Delete(context.WithoutCancel(ctx), ref))
		way, werr := l.inTheWay(ctx, tip)
		switch {
		case errors.Is(werr, gitops.ErrHeadMoved):
			return werr
		case werr != nil:
			return errors.Join(err, werr)
		case len(way) > 0:
			return l.refuse(way)
		}
		return err
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
	l.State.WaveInTheWay = nil
	// A ref left behind is dropped by the next command, which finds the
	// branch at it and nothing to take back.
	_ = l.Repo.Refs().Delete(ctx, ref)
	return nil
}

// clear makes sure that the landing writes over nothing of a person's
// (inTheWay). What is in its way stops it the first time, naming the
// paths and touching nothing (refuse); the landing of that wave after the
// stop, told so, keeps the person's bytes under a ref, names it, and puts
// those paths back as the base has them for git to write the wave's. An
// ignored file is never landed over: a ref cannot keep it.
func (l *Landing) clear(ctx context.Context, id planparse.TaskID, tip gitops.SHA) error {
	way, err := l.inTheWay(ctx, tip)
	if err != nil || len(way) == 0 {
		return err
	}
	var ignored []string
	for _, p := range way {
		if ig, err := l.Repo.Index().Ignored(ctx, p); err != nil {
			return err
		} else if ig {
			ignored = append(ignored, p)
		}
	}
	if len(ignored) > 0 {
		return &outcome.Failure{What: fmt.Sprintf("wave %d did not land: your ignored %s is in its way, since its tasks add it; planx changed neither it nor the branch",
			l.Number, textsafe.List(ignored)),
			Hint: "move it away, then `planx resume` lands the wave; `planx abort` ends the run"}
	}
	if len(l.State.WaveInTheWay) == 0 {
		return l.refuse(way)
	}
	snap, err := l.Repo.Commits().Snapshot(ctx, fmt.Sprintf("planx: work tree before wave %d lands over a person's changes\n\n%s: %s\n", l.Number, record.TrailerRun, l.State.RunID), l.Base)
	if err != nil {
		return fmt.Errorf("keep the changes in wave %d's way: %w", l.Number, err)
	}
	kept, err := attempt.Records{Repo: l.Repo, State: l.State}.Keep(ctx, snap, fmt.Sprintf("the work tree before wave %d lands over a person's changes", l.Number))
	if err != nil {
		return fmt.Errorf("keep the changes in wave %d's way: %w", l.Number, err)
	}
	hall.Warn(l.Desk, id, fmt.Sprintf("kept %s: changed in your work tree, where wave %d lands: your bytes are at %s (`git checkout %s -- %s` gets them back)",
		textsafe.List(way), l.Number, kept, kept, way[0]))
	return attempt.RestorePaths(ctx, l.Repo, l.Base, way)
}

// inTheWay is what of a person's stands in the way of landing tip: a
// commit of theirs that took the branch while the wave ran (an error: the
// wave lands on it when the run goes on), or the paths the landing writes
// that hold a change of theirs (edited, staged, or an untracked file where
// the wave adds one; pathsInTheWay).
func (l *Landing) inTheWay(ctx context.Context, tip gitops.SHA) ([]string, error) {
	head, err := l.Repo.Refs().Resolve(ctx, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("read the branch before wave %d lands: %w", l.Number, err)
	}
	if head != l.Base {
		return nil, fmt.Errorf("%w: a commit planx did not make (git log %s..%s) took the branch while wave %d ran; nothing of the wave is on it or in the work tree yet, and `planx resume` lands the wave on it",
			gitops.ErrHeadMoved, l.Base.Short(), head.Short(), l.Number)
	}
	return pathsInTheWay(ctx, l.Repo, l.Base, tip)
}

// refuse stops the landing at a person's changes in its way (a failure:
// exit 3), recording them in the run's state so that the landing of the
// wave after the stop keeps them and lands over them (clear).
func (l *Landing) refuse(way []string) error {
	if len(way) == 0 {
		return nil
	}
	l.State.WaveInTheWay = way
	return &outcome.Failure{What: fmt.Sprintf("wave %d did not land: your changes to %s (in your work tree, not committed) are in its way, since its tasks change them too; planx changed neither them nor the branch",
		l.Number, textsafe.List(way)),
		Hint: fmt.Sprintf("`planx resume` keeps your version under %s<n>, names it, and lands the wave over it; to keep your change in the work tree instead, commit or stash it first (`git stash -u`), then `planx resume`; `planx abort` ends the run",
			record.RunRef(l.State.RunID, "kept/"))}
}

// Unland finishes with a landing of the run runID that a stop cut (its
// landing ref is left): when the branch did not reach the landing's commit,
// what the landing wrote to the index and work tree is taken back
// (retract), so that the wave lands again from where the branch
// is, as after a stop before its landing; then the ref goes. It returns
// the paths it put back (none when there was no cut landing).
func Unland(ctx context.Context, repo *gitops.Repo, runID string) ([]string, error) {
	ref := record.LandingRef(runID)
	tip, err := repo.Refs().Resolve(ctx, ref)
	if err != nil || tip == "" {
		return nil, err
	}
	back, err := retract(ctx, repo, tip)
	if err != nil {
		return nil, fmt.Errorf("take back the cut landing of %s: %w", tip.Short(), err)
	}
	return back, repo.Refs().Delete(ctx, ref)
}
