package verify

import (
	"context"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
)

// Another planx run of the same repository, in another linked work tree,
// writes to the common git directory while this run's task runs: its own
// refs (refs/planx/runs/<its id>/, which the guard leaves out), its
// records, and gate notes on its task commits in refs/notes/planx, the one
// ref the runs share. The guard must not take those for the task's.

// GitDirChanged lists what of the git directory changed since guard was
// taken for the run runID, but for notes another run added.
func GitDirChanged(ctx context.Context, repo *gitops.Repo, runID string, guard Guard) ([]string, error) {
	now := GuardOf(repo, runID)
	changed := guard.Changed(now)
	notes := ".git/" + record.NoteRef
	if !slices.Contains(changed, notes) {
		return changed, nil
	}
	others, err := othersNotes(ctx, repo, runID, gitops.SHA(guard.Ref(record.NoteRef)), gitops.SHA(now.Ref(record.NoteRef)))
	if err != nil {
		return nil, err
	}
	if others {
		changed = slices.DeleteFunc(changed, func(c string) bool { return c == notes })
	}
	return changed, nil
}

// othersNotes says whether the notes ref moved from old to now only by
// notes added to other runs' task commits: each new note is on a commit
// whose Planx-Run trailer names a run that is not runID and has a base
// ref (refs/planx/runs/<id>/base), and no note was changed or removed.
func othersNotes(ctx context.Context, repo *gitops.Repo, runID string, old, now gitops.SHA) (bool, error) {
	if now == "" {
		return false, nil // the ref was deleted: never another run's doing
	}
	added, other, err := repo.Notes().Added(ctx, old, now)
	if err != nil || other || len(added) == 0 {
		return false, err
	}
	for _, sha := range added {
		cs, err := repo.History().Log(ctx, sha, "", 1)
		if err != nil || len(cs) != 1 {
			return false, nil // not a commit: no run's task commit
		}
		run := ""
		for _, t := range record.ParseTrailers(cs[0].Message) {
			if t.Key == record.TrailerRun {
				run = t.Value
			}
		}
		if run == "" || run == runID || !validRunID(run) {
			return false, nil
		}
		base, err := repo.Refs().ResolveObject(ctx, record.RunRef(run, "base"))
		if err != nil || base == "" {
			return false, err
		}
	}
	return true, nil
}

// validRunID says whether id has a run id's shape: a trailer's value
// becomes part of a ref name only then.
func validRunID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}
