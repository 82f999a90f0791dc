package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// verify checks with git that the task did real work: something changed
// (unless it is a checkpoint) and its declared files exist, or are gone when
// declared deleted. It returns the changed paths.
func (r *runner) verify(ctx context.Context, t *planparse.Task) ([]string, error) {
	changes, err := r.repo.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("verify %s: %w", t.ID, err)
	}
	var files []string
	for _, c := range changes {
		// The log is planx's own output and the plan gets ticked by planx:
		// neither is evidence of the task's work.
		if c.Path == r.log.Path || (c.Path == r.planRel && r.planUnchanged()) {
			continue
		}
		files = append(files, c.Path)
	}
	sort.Strings(files)
	if len(files) == 0 && !t.Checkpoint {
		return nil, &taskFailure{what: "no changes: the task was expected to change the repository and changed nothing (mark it `Checkpoint: yes` if it only verifies)"}
	}
	var problems []string
	for _, f := range t.Files {
		_, err := os.Lstat(relJoin(r.repo.Root, f.Path))
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("verify %s: %w", t.ID, err)
		}
		switch {
		case f.Action == planparse.ActionDelete && exists:
			problems = append(problems, fmt.Sprintf("%s was declared deleted but still exists", f.Path))
		case f.Action != planparse.ActionDelete && !exists:
			problems = append(problems, fmt.Sprintf("%s was declared (%s) but does not exist", f.Path, f.Action))
		}
	}
	if len(problems) > 0 {
		return nil, &taskFailure{what: "declared files: " + strings.Join(problems, "; ")}
	}
	return files, nil
}

// planUnchanged reports whether the plan file still has the bytes planx knows,
// so that a task that edits the plan itself is seen as a change.
func (r *runner) planUnchanged() bool {
	b, err := os.ReadFile(r.planAbs)
	return err == nil && string(b) == string(r.planSrc)
}
