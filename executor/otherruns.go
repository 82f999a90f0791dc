package executor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstate"
)

// Another planx run of the same repository, in another linked work tree,
// writes to the common git directory while this run's task runs: its own
// refs (refs/planx/runs/<its id>/, which the guard leaves out), its
// records, and gate notes on its task commits in refs/notes/planx, the one
// ref the runs share. The guard must not take those for the task's.

// gitDirChanged lists what of the git directory changed since the task's
// guard was taken, but for notes another run added.
func (tu *turn) gitDirChanged(ctx context.Context) ([]string, error) {
	r := tu.r
	now := r.repo.Config().Guard(r.st.RunID)
	changed := tu.guard.Changed(now)
	notes := ".git/" + gitops.NotesPlanx
	if !slices.Contains(changed, notes) {
		return changed, nil
	}
	others, err := r.othersNotes(ctx, gitops.SHA(tu.guard.Ref(gitops.NotesPlanx)), gitops.SHA(now.Ref(gitops.NotesPlanx)))
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
// whose Planx-Run trailer names a run that is not this one and has a base
// ref (refs/planx/runs/<id>/base), and no note was changed or removed.
func (r *runner) othersNotes(ctx context.Context, old, now gitops.SHA) (bool, error) {
	if now == "" {
		return false, nil // the ref was deleted: never another run's doing
	}
	added, other, err := r.repo.Notes().Added(ctx, old, now)
	if err != nil || other || len(added) == 0 {
		return false, err
	}
	for _, sha := range added {
		cs, err := r.repo.History().Log(ctx, sha, "", 1)
		if err != nil || len(cs) != 1 {
			return false, nil // not a commit: no run's task commit
		}
		run := ""
		for _, t := range cs[0].Trailers {
			if t.Key == record.TrailerRun {
				run = t.Value
			}
		}
		if run == "" || run == r.st.RunID || !validRunID(run) {
			return false, nil
		}
		base, err := r.repo.Refs().ResolveObject(ctx, baseRef(run))
		if err != nil || base == "" {
			return false, err
		}
	}
	return true, nil
}

// validRunID says whether id has a run id's shape (newRunID): a trailer's
// value becomes part of a ref name only then.
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

// runsElsewhere lists the runs other work trees of repo have in progress
// (their saved states): their slots under the common git directory are
// theirs, and this work tree's cleanup must leave them alone.
func runsElsewhere(repo *gitops.Repo) map[string]bool {
	files := []string{filepath.Join(repo.CommonDir, "planx", "state.json")}
	linked, _ := filepath.Glob(filepath.Join(repo.CommonDir, "worktrees", "*", "planx", "state.json"))
	out := map[string]bool{}
	own := filepath.Clean(runstate.Path(repo))
	for _, f := range append(files, linked...) {
		if filepath.Clean(f) == own {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var st struct {
			RunID string `json:"run_id"`
		}
		if json.Unmarshal(b, &st) == nil && st.RunID != "" {
			out[st.RunID] = true
		}
	}
	return out
}
