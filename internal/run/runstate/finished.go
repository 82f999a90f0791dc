package runstate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
)

// Finished is what `planx undo` needs of a run that ended: the state as
// the run left it (the commit before the run, the rollback commit, the
// index and its marks as they were) and the run's last commit, which
// HEAD must still be for the undo to take out only the run's work. The
// state file is removed when a run ends; this copy is kept in the run's
// directory until `planx prune` takes it.
type Finished struct {
	Last  gitops.SHA `json:"last"`
	State *State     `json:"state"`
}

func finishedPath(repo *gitops.Repo, runID string) string {
	return filepath.Join(RunDir(repo, runID), "finished.json")
}

// SaveFinished keeps st and the run's last commit for `planx undo`.
func SaveFinished(repo *gitops.Repo, st *State, last gitops.SHA) error {
	data, err := json.MarshalIndent(Finished{Last: last, State: st}, "", "  ")
	if err != nil {
		return fmt.Errorf("save the finished run's record: %w", err)
	}
	p := finishedPath(repo, st.RunID)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("save the finished run's record: %w", err)
	}
	return fsutil.Replace(p, data, 0o644, repo.Config().Durable())
}

// LoadFinished reads what SaveFinished kept of run runID; (nil, nil)
// when there is none (the run did not finish, or it was pruned).
func LoadFinished(repo *gitops.Repo, runID string) (*Finished, error) {
	data, err := os.ReadFile(finishedPath(repo, runID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the finished run's record: %w", err)
	}
	var f Finished
	if err := json.Unmarshal(data, &f); err != nil || f.State == nil {
		return nil, fmt.Errorf("read the finished run's record %s: corrupt (%v)", finishedPath(repo, runID), err)
	}
	return &f, nil
}

// DropFinished removes the record once the run is undone: the branch is
// no longer on the run, and a second undo must find the run before it.
func DropFinished(repo *gitops.Repo, runID string) error {
	err := os.Remove(finishedPath(repo, runID))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("drop the finished run's record: %w", err)
	}
	return nil
}
