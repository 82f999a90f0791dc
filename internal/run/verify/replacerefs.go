package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
)

// A replace ref (refs/replace/*, `git replace`) makes git read one object
// for another: one naming the blob of a test makes every checkout show
// another test while the work tree, the index and the commit keep the real
// one. planx's own git never honours them (gitops runs every git process
// with GIT_NO_REPLACE_OBJECTS=1), but the user's git, and the git a gate
// runs, do. So a replace ref is a write into the git directory like a
// planted hook: a task that makes, moves or deletes one fails, and planx
// puts the replace refs back as they were before the task. They are listed
// with git (for-each-ref), not read from files: loose, packed or in a
// reftable, a ref is a ref.

// ReplaceRefs lists the replace refs and the objects they point at.
func ReplaceRefs(ctx context.Context, repo *gitops.Repo) (map[string]gitops.SHA, error) {
	refs, err := repo.Refs().List(ctx, gitops.ReplaceRefs)
	if err != nil {
		return nil, fmt.Errorf("list the replace refs: %w", err)
	}
	return refs, nil
}

// ReplaceWritten compares the replace refs with before, puts back what
// differs, and says what was written and what planx did ("" when nothing
// was written).
func ReplaceWritten(ctx context.Context, repo *gitops.Repo, before map[string]gitops.SHA) (string, error) {
	now, err := ReplaceRefs(ctx, repo)
	if err != nil {
		return "", err
	}
	var written, undone []string
	for ref, sha := range now {
		old, ok := before[ref]
		switch {
		case !ok:
			written = append(written, ref)
			if err := repo.Refs().Delete(ctx, ref); err != nil {
				return "", fmt.Errorf("remove %s: %w", ref, err)
			}
			undone = append(undone, "removed "+ref)
		case old != sha:
			written = append(written, ref+" (moved)")
			if err := repo.Refs().Update(ctx, ref, old, sha, "planx: a task moved a replace ref"); err != nil {
				return "", fmt.Errorf("restore %s: %w", ref, err)
			}
			undone = append(undone, "restored "+ref)
		}
	}
	for ref, old := range before {
		if _, ok := now[ref]; !ok {
			written = append(written, ref+" (deleted)")
			if err := repo.Refs().Update(ctx, ref, old, gitops.ZeroSHA, "planx: a task deleted a replace ref"); err != nil {
				return "", fmt.Errorf("restore %s: %w", ref, err)
			}
			undone = append(undone, "restored "+ref)
		}
	}
	if len(written) == 0 {
		return "", nil
	}
	slices.Sort(written)
	slices.Sort(undone)
	return fmt.Sprintf("%s: git replace, which makes git read one object for another; planx %s",
		strings.Join(written, ", "), strings.Join(undone, ", ")), nil
}

// Replace fails the task when the replace refs differ from before, those
// before it, after putting them back.
func Replace(ctx context.Context, repo *gitops.Repo, before map[string]gitops.SHA) error {
	what, err := ReplaceWritten(ctx, repo, before)
	if err != nil || what == "" {
		return err
	}
	return &outcome.Failure{What: "the task wrote to the git directory (" + what + "); .git/ is never a task's output"}
}
