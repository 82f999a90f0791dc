package taskgate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// TestFreshDeps links a task's dependency environments into its checkouts
// unless it changed a manifest: then they are installed afresh, and
// without a worktree_setup to install them the task fails, saying so.
func TestFreshDeps(t *testing.T) {
	t.Parallel()
	k := &Keeper{Repo: &gitops.Repo{Root: t.TempDir()}}
	tk := Task{Ignored: []string{"node_modules/", "settings.local", ".venv/"}}
	if envs, err := k.freshDeps(tk); envs != nil || err != nil {
		t.Errorf("no manifest changed: %q, %v; want nothing afresh", envs, err)
	}
	tk.ChangesDeps = true
	envs, err := k.freshDeps(tk)
	if f := outcome.As(err); f == nil || !strings.Contains(f.What, "node_modules/, .venv/") || !strings.Contains(f.Hint, "worktree_setup") {
		t.Errorf("a manifest changed, no worktree_setup: %q, %v; want the task failed", envs, err)
	}
	k.WorktreeSetup = "npm ci"
	if envs, err := k.freshDeps(tk); !slices.Equal(envs, []string{"node_modules/", ".venv/"}) || err != nil {
		t.Errorf("with worktree_setup: %q, %v; want both environments afresh", envs, err)
	}
}

// TestCheckoutForLinks links into a task's checkout what the work tree
// held before the agent ran, bytecode caches aside, and the extra entries.
func TestCheckoutForLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, ".gitignore", "*.local\n__pycache__/\nsub/\n")
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	one := gitops.SHA(gittest.Commit(t, dir, "one"))
	gittest.WriteFile(t, dir, "settings.local", "x=1\n")
	gittest.WriteFile(t, dir, "__pycache__/a.pyc", "bytecode\n")
	gittest.WriteFile(t, dir, "sub/x", "x\n")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	k := newKeeper(repo, &runstate.State{RunID: "run1"})
	tk := Task{T: &planparse.Task{ID: "T001"}, Ignored: []string{"settings.local", "__pycache__/"}}
	wt, err := k.checkoutFor(ctx, tk, one, "judge", "sub/")
	if err != nil {
		t.Fatal(err)
	}
	for l, want := range map[string]bool{"settings.local": true, "sub": true, "__pycache__": false} {
		_, err := os.Readlink(filepath.Join(wt.Dir(), l))
		if (err == nil) != want {
			t.Errorf("%s linked: %v, want %v", l, err == nil, want)
		}
	}
	wt.Release(ctx)
	wavepkg.DropRunWorktrees(repo, nil)
}

func TestEnvEntries(t *testing.T) {
	t.Parallel()
	got := envEntries([]string{"node_modules/padleft/index.js", "web/node_modules/", ".venv/bin/python", "env/", "dist/a.js", "a/venv/lib/x.py"})
	want := []string{"node_modules/", "web/node_modules/", "web/node_modules/", ".venv/", "env/", "a/venv/"}
	if !slices.Equal(got, want) {
		t.Errorf("envEntries = %q, want %q", got, want)
	}
}
