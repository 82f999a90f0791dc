package executor

import (
	"context"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
)

// A parallel wave's commits are made with commit-tree, which runs no hook,
// so planx runs the user's commit hooks itself where git commit would have
// them see what they check: pre-commit in the task's own work tree, on its
// changes staged there, before its work is recorded (preCommitIn), and
// prepare-commit-msg and commit-msg on the task's message file at
// integration (messageHooks). A refusal fails the task with the hook's
// output, as on the serial path; --no-verify skips pre-commit and
// commit-msg, as it does for git commit. post-commit does not run.

// preCommitIn runs the pre-commit hook in a wave task's work tree wt,
// whose index holds the task's work as tree, and returns the tree to
// record: the index as the hook left it (a hook may stage fixes, which git
// commit would commit).
func (r *runner) preCommitIn(ctx context.Context, wt *gitops.Repo, t *planparse.Task, tree gitops.SHA) (gitops.SHA, error) {
	if !r.hooks || r.o.NoVerify {
		return tree, nil
	}
	if j := r.st.Pinned; j != nil {
		j.Apply(wt) // the hooks path and identity in force at run start
	}
	if err := wt.RunHook(ctx, "pre-commit"); err != nil {
		return "", commitError(t, err)
	}
	return wt.Index().Tree(ctx)
}

// messageHooks runs prepare-commit-msg and commit-msg on a wave task's
// commit message, in a file as git commit would give them, and returns the
// message as they left it.
func (r *runner) messageHooks(ctx context.Context, t *planparse.Task, msg string) (string, error) {
	if !r.hooks {
		return msg, nil
	}
	dir := runstate.RunDir(r.repo, r.st.RunID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, string(t.ID)+"-COMMIT_EDITMSG")
	if err := os.WriteFile(path, []byte(msg), 0o644); err != nil {
		return "", err
	}
	defer os.Remove(path)
	if err := r.repo.RunHook(ctx, "prepare-commit-msg", path, "message"); err != nil {
		return "", commitError(t, err)
	}
	if !r.o.NoVerify {
		if err := r.repo.RunHook(ctx, "commit-msg", path); err != nil {
			return "", commitError(t, err)
		}
	}
	b, err := os.ReadFile(path)
	return string(b), err
}
