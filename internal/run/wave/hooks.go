package wave

import (
	"context"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// A parallel wave's commits are made with commit-tree, which runs no hook,
// so planx runs the user's commit hooks itself where git commit would have
// them see what they check: pre-commit in the task's own work tree, on its
// changes staged there, before its work is recorded (PreCommit), and
// prepare-commit-msg and commit-msg on the task's message file at
// integration (Message). A refusal fails the task with the hook's output,
// as on the serial path; --no-verify skips pre-commit and commit-msg, as
// it does for git commit. post-commit does not run.

// Hooks are the commit hooks a run's wave commits go through.
type Hooks struct {
	On       bool   // the repository has commit hooks that run
	NoVerify bool   // --no-verify: pre-commit and commit-msg are skipped
	Dir      string // where a message file is written for the hooks (the run's directory)
	// Pin pins, in a task's work tree, the hooks path and identity in
	// force at run start; nil when nothing is pinned.
	Pin func(wt *gitops.Repo)
	// Refused maps a hook's refusal (or a failure to run it) to the
	// task's error, as a commit on the serial path does.
	Refused func(t *planparse.Task, err error) error
}

// PreCommit runs the pre-commit hook in a wave task's work tree wt, whose
// index holds the task's work as tree, and returns the tree to record: the
// index as the hook left it (a hook may stage fixes, which git commit
// would commit).
func (h Hooks) PreCommit(ctx context.Context, wt *gitops.Repo, t *planparse.Task, tree gitops.SHA) (gitops.SHA, error) {
	if !h.On || h.NoVerify {
		return tree, nil
	}
	if h.Pin != nil {
		h.Pin(wt)
	}
	if err := wt.Commits().RunHook(ctx, "pre-commit"); err != nil {
		return "", h.Refused(t, err)
	}
	return wt.Index().Tree(ctx)
}

// Message runs prepare-commit-msg and commit-msg in repo on a wave task's
// commit message, in a file as git commit would give them, and returns the
// message as they left it.
func (h Hooks) Message(ctx context.Context, repo *gitops.Repo, t *planparse.Task, msg string) (string, error) {
	if !h.On {
		return msg, nil
	}
	if err := os.MkdirAll(h.Dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(h.Dir, string(t.ID)+"-COMMIT_EDITMSG")
	if err := os.WriteFile(path, []byte(msg), 0o644); err != nil {
		return "", err
	}
	defer os.Remove(path)
	if err := repo.Commits().RunHook(ctx, "prepare-commit-msg", path, "message"); err != nil {
		return "", h.Refused(t, err)
	}
	if !h.NoVerify {
		if err := repo.Commits().RunHook(ctx, "commit-msg", path); err != nil {
			return "", h.Refused(t, err)
		}
	}
	b, err := os.ReadFile(path)
	return string(b), err
}
