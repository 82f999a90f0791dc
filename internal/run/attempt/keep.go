package attempt

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/textsafe"
)

// Kept bytes. A recovery command (resume, resume --retry, skip, abort) that
// is about to drop or write over bytes a person wrote after the stop first
// keeps them as a commit under refs/planx/runs/<id>/kept/<n> and says how to
// get them back. Two kinds are at risk: content staged apart from the work
// tree (version X in the index, Y in the file), which lives in the index
// only and which staging, discarding or abort's reset replaces; and the
// files --retry keeps because they changed since the stop, which the task
// run again may write over.

// Keep points the next free refs/planx/runs/<id>/kept/<n> at sha.
func (s Records) Keep(ctx context.Context, sha gitops.SHA, why string) (string, error) {
	for range 100 {
		s.State.Kept++
		ref := record.RunRef(s.State.RunID, fmt.Sprintf("kept/%d", s.State.Kept))
		err := s.Repo.Refs().Update(ctx, ref, sha, gitops.ZeroSHA, "planx: "+why)
		if !errors.Is(err, gitops.ErrHeadMoved) {
			return ref, err // a ref of a command that never saved its count is taken: the next one
		}
	}
	return "", fmt.Errorf("%w: no free ref under refs/planx/runs/%s/kept/", gitops.ErrRepoState, s.State.RunID)
}

// KeepStagedApart keeps the index under a kept ref when some path's staged
// content differs from HEAD, from the work tree and from the stop's snapshot:
// those bytes are in no commit, and the command about to run replaces them.
// An index whose tree
// is restored's (abort puts that one back itself) is not kept again.
func (s Records) KeepStagedApart(ctx context.Context, restored gitops.SHA) error {
	changes, err := s.Repo.Status(ctx)
	if err != nil {
		return err
	}
	var apart, unmerged []string
	for _, c := range changes {
		switch {
		case unmergedStatus(c):
			unmerged = append(unmerged, c.Path)
		case c.Index != '.' && c.Index != '?' && c.Work != '.' && c.Work != '?':
			apart = append(apart, c.Path)
		}
	}
	if len(apart) == 0 {
		return nil
	}
	if len(unmerged) > 0 {
		// An index in the middle of a merge cannot be written as a tree.
		s.Out.Println("planx: warning: %s staged apart from the work tree could not be kept: the index has unmerged paths (%s)",
			textsafe.List(apart), textsafe.List(unmerged))
		return nil
	}
	head, _ := s.Repo.Refs().Resolve(ctx, "HEAD") // "" on an unborn branch
	id := s.State.RunID
	sha, err := s.Repo.Index().Save(ctx, fmt.Sprintf("planx: the index as staged after a stop of run %s\n\n%s: %s\n", id, record.TrailerRun, id), head)
	if err != nil {
		return err
	}
	if apart, err = s.notInStop(ctx, sha, apart); err != nil || len(apart) == 0 {
		return err
	}
	if restored != "" {
		now, err1 := s.Repo.Objects().TreeOf(ctx, sha)
		was, err2 := s.Repo.Objects().TreeOf(ctx, restored)
		if err1 == nil && err2 == nil && now == was {
			return nil
		}
	}
	ref, err := s.Keep(ctx, sha, "the index, staged apart from the work tree")
	if err != nil {
		return err
	}
	s.Out.Println("planx: kept the index at %s: %s staged apart from the work tree; `git show %s:%s` prints the staged bytes, `git restore --source=%s --staged -- %s` stages them again",
		ref, textsafe.List(apart), ref, apart[0], ref, apart[0])
	return nil
}

// notInStop drops from apart the paths whose staged bytes (in index, the
// index saved as a commit) are those of the stop's snapshot: planx staged
// them itself before the stop (a task's work is staged for its gates), so a
// person who then fixed the file by hand left planx's bytes in the index, and
// the stop ref already keeps them. Only what a person staged is in no commit.
func (s Records) notInStop(ctx context.Context, index gitops.SHA, apart []string) ([]string, error) {
	if s.State.AttemptStop == "" {
		return apart, nil
	}
	differ, err := s.Repo.History().ChangedFiles(ctx, s.State.AttemptStop, index)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range apart {
		if slices.Contains(differ, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// unmergedStatus reports a conflicted path (git status's DD, AU, UD, UA, DU,
// AA and UU).
func unmergedStatus(c gitops.Change) bool {
	return c.Index == 'U' || c.Work == 'U' || (c.Index == c.Work && (c.Index == 'A' || c.Index == 'D'))
}
