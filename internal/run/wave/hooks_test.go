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
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// refusedBy says whether err is a hook's refusal (CommitError's failure)
// by the hook named, with output in its tail.
func refusedBy(err error, hook, output string) bool {
	var f *outcome.Failure
	return errors.As(err, &f) && f.What == "the "+hook+" hook refused the commit" && strings.Contains(f.Tail, output)
}

func hooked(t *testing.T) (*gitops.Repo, Hooks) {
	t.Helper()
	repo, _, _ := repoAt(t)
	hooks := filepath.Join(repo.CommonDir, "hooks")
	gittest.WriteFileMode(t, hooks, "prepare-commit-msg", "#!/bin/sh\necho prepared >> \"$1\"\n", 0o755)
	gittest.WriteFileMode(t, hooks, "commit-msg", "#!/bin/sh\ngrep -q refuse \"$1\" && { echo no >&2; exit 1; }\necho checked >> \"$1\"\n", 0o755)
	// pre-commit stages a fix, and who git says commits (the identity
	// pinned, when one is).
	gittest.WriteFileMode(t, hooks, "pre-commit", "#!/bin/sh\necho fixed > fixed.txt\ngit config user.name > name.txt\ngit add fixed.txt name.txt\n", 0o755)
	return repo, Hooks{On: true, Dir: t.TempDir()}
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
	if _, err := h.Message(ctx, repo, task, "refuse\n"); !refusedBy(err, "commit-msg", "no") {
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
	h.Pinned = &runstate.Pinned{Identity: [2]string{"Pinned Name", "pinned@example.com"}}
	got, err := h.PreCommit(ctx, repo, task, tree)
	if err != nil {
		t.Fatal(err)
	}
	if got == tree {
		t.Errorf("PreCommit = %s, the tree before: want the hook's fix recorded", got)
	}
	for name, want := range map[string]string{"fixed.txt": "fixed", "name.txt": "Pinned Name"} {
		if b, err := repo.History().ShowFile(ctx, got, name); err != nil || strings.TrimSpace(string(b)) != want {
			t.Errorf("%s in the tree: %q, %v; want %q", name, b, err, want)
		}
	}
	h.NoVerify = true
	if got, err := h.PreCommit(ctx, repo, task, tree); err != nil || got != tree {
		t.Errorf("--no-verify: PreCommit = %s, %v; want the tree as it was", got, err)
	}
	h.NoVerify = false
	gittest.WriteFileMode(t, filepath.Join(repo.CommonDir, "hooks"), "pre-commit", "#!/bin/sh\necho not today >&2\nexit 1\n", 0o755)
	if _, err := h.PreCommit(ctx, repo, task, tree); !refusedBy(err, "pre-commit", "not today") {
		t.Errorf("a refusing pre-commit: %v", err)
	}
}
