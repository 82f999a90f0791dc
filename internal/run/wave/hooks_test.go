package wave

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/planparse"
)

// refused marks a hook's refusal as the executor's commitError would.
func refused(t *planparse.Task, err error) error {
	var hook *gitops.HookError
	if errors.As(err, &hook) {
		return errors.New("refused by " + hook.Hook + " for " + string(t.ID))
	}
	return err
}

func hooked(t *testing.T) (*gitops.Repo, Hooks) {
	t.Helper()
	repo, _, _ := repoAt(t)
	hooks := filepath.Join(repo.CommonDir, "hooks")
	gittest.WriteFileMode(t, hooks, "prepare-commit-msg", "#!/bin/sh\necho prepared >> \"$1\"\n", 0o755)
	gittest.WriteFileMode(t, hooks, "commit-msg", "#!/bin/sh\ngrep -q refuse \"$1\" && { echo no >&2; exit 1; }\necho checked >> \"$1\"\n", 0o755)
	gittest.WriteFileMode(t, hooks, "pre-commit", "#!/bin/sh\necho fixed > fixed.txt\ngit add fixed.txt\n", 0o755)
	return repo, Hooks{On: true, Dir: t.TempDir(), Refused: refused}
}

func TestHooksMessage(t *testing.T) {
	t.Parallel()
	repo, h := hooked(t)
	ctx := context.Background()
	task := &planparse.Task{ID: "T001"}
	msg, err := h.Message(ctx, repo, task, "T001: a task\n")
	if err != nil || msg != "T001: a task\nprepared\nchecked\n" {
		t.Errorf("Message = %q, %v", msg, err)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "T001-COMMIT_EDITMSG")); err == nil {
		t.Error("the message file is left")
	}
	if _, err := h.Message(ctx, repo, task, "refuse\n"); err == nil || err.Error() != "refused by commit-msg for T001" {
		t.Errorf("a refused message: %v", err)
	}
	h.NoVerify = true
	if msg, err := h.Message(ctx, repo, task, "refuse\n"); err != nil || msg != "refuse\nprepared\n" {
		t.Errorf("--no-verify: Message = %q, %v (prepare-commit-msg runs, commit-msg does not)", msg, err)
	}
	h.On = false
	if msg, err := h.Message(ctx, repo, task, "refuse\n"); err != nil || msg != "refuse\n" {
		t.Errorf("no hooks: Message = %q, %v", msg, err)
	}
}

func TestHooksPreCommit(t *testing.T) {
	t.Parallel()
	repo, h := hooked(t)
	ctx := context.Background()
	task := &planparse.Task{ID: "T001"}
	tree, err := repo.Index().Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pinned := 0
	h.Pin = func(wt *gitops.Repo) { pinned++ }
	got, err := h.PreCommit(ctx, repo, task, tree)
	if err != nil {
		t.Fatal(err)
	}
	if got == tree || pinned != 1 {
		t.Errorf("PreCommit = %s (tree before %s), pinned %d times: want the hook's fix recorded after one pin", got, tree, pinned)
	}
	if b, err := repo.History().ShowFile(ctx, got, "fixed.txt"); err != nil || strings.TrimSpace(string(b)) != "fixed" {
		t.Errorf("fixed.txt in the tree: %q, %v", b, err)
	}
	h.NoVerify = true
	if got, err := h.PreCommit(ctx, repo, task, tree); err != nil || got != tree || pinned != 1 {
		t.Errorf("--no-verify: PreCommit = %s, %v, pinned %d; want the tree as it was", got, err, pinned)
	}
	h.NoVerify = false
	gittest.WriteFileMode(t, filepath.Join(repo.CommonDir, "hooks"), "pre-commit", "#!/bin/sh\nexit 1\n", 0o755)
	if _, err := h.PreCommit(ctx, repo, task, tree); err == nil || err.Error() != "refused by pre-commit for T001" {
		t.Errorf("a refusing pre-commit: %v", err)
	}
}
