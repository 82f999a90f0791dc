package runstate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
)

// RunsElsewhere lists the runs other work trees of repo have in progress
// (their saved states): their slots under the common git directory are
// theirs, and this work tree's cleanup must leave them alone.
func RunsElsewhere(repo *gitops.Repo) map[string]bool {
	files := []string{filepath.Join(repo.CommonDir, "planx", "state.json")}
	linked, _ := filepath.Glob(filepath.Join(repo.CommonDir, "worktrees", "*", "planx", "state.json"))
	out := map[string]bool{}
	own := filepath.Clean(Path(repo))
	for _, f := range append(files, linked...) {
		if filepath.Clean(f) == own {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// The state's first JSON value names the run (save.go).
		var st struct {
			RunID string `json:"run_id"`
		}
		if json.NewDecoder(bytes.NewReader(b)).Decode(&st) == nil && st.RunID != "" {
			out[st.RunID] = true
		}
	}
	return out
}
