package taskgate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// TestCheckoutReusesSlot gives the clean checkouts of a run one slot: the
// second checkout, of another commit, is the first's work tree moved, with
// nothing the first use left in it (an ignored build output, bytecode, a
// changed file), and the links into the work tree's ignored entries are
// gone before it is reused, the entries themselves untouched. The run's
// end leaves no work tree registered.
func TestCheckoutReusesSlot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, ".gitignore", "out/\n.venv/\n*.local\n")
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	one := gitops.SHA(gittest.Commit(t, dir, "one"))
	gittest.WriteFile(t, dir, "b.txt", "b\n")
	two := gitops.SHA(gittest.Commit(t, dir, "two"))
	// The user's environment, which git ignores and the gates need.
	gittest.WriteFile(t, dir, ".venv/bin/python", "#!/bin/sh\n")
	gittest.WriteFile(t, dir, "settings.local", "x=1\n")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	k := newKeeper(repo, &runstate.State{RunID: "run1"})
	task := &planparse.Task{ID: "T001"}

	first, err := k.Checkout(ctx, task, one, "gates", []string{".venv/", "settings.local"})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{".venv", "settings.local"} {
		if target, err := os.Readlink(filepath.Join(first.dir, l)); err != nil || target != filepath.Join(dir, l) {
			t.Errorf("%s in the checkout: link to %q (%v), want %s", l, target, err, filepath.Join(dir, l))
		}
	}
	// What a gate run leaves: build outputs and bytecode (ignored or not),
	// a tracked file changed, a file written through a link.
	gittest.WriteFile(t, first.dir, "out/app", "binary\n")
	gittest.WriteFile(t, first.dir, "__pycache__/a.cpython-312.pyc", "bytecode\n")
	gittest.WriteFile(t, first.dir, "a.txt", "changed\n")
	gittest.WriteFile(t, first.dir, ".venv/lib/site.py", "installed\n")
	first.Release(ctx)
	for _, l := range []string{".venv", "settings.local"} {
		if _, err := os.Lstat(filepath.Join(first.dir, l)); err == nil {
			t.Errorf("%s still in the slot after release", l)
		}
	}
	for _, f := range []string{".venv/bin/python", ".venv/lib/site.py", "settings.local"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the work tree's ignored %s: %v", f, err)
		}
	}

	second, err := k.Checkout(ctx, task, two, "judge", nil)
	if err != nil {
		t.Fatal(err)
	}
	if second.dir != first.dir {
		t.Errorf("second checkout in %s, want the first's slot %s", second.dir, first.dir)
	}
	if got := gittest.Git(t, second.dir, "rev-parse", "HEAD"); got != string(two) {
		t.Errorf("slot at %s, want %s", got, two)
	}
	if got := gittest.Git(t, second.dir, "status", "--porcelain", "--ignored"); got != "" {
		t.Errorf("slot at its second use holds what the first left: %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(second.dir, "b.txt")); string(b) != "b\n" {
		t.Errorf("b.txt in the slot: %q", b)
	}
	second.Release(ctx)
	if got := gittest.Worktrees(t, dir); len(got) != 2 {
		t.Errorf("worktree list, want the work tree and one slot:\n%s", strings.Join(got, "\n"))
	}

	wavepkg.DropRunWorktrees(repo, nil)
	if got := gittest.Worktrees(t, dir); len(got) != 2 {
		t.Errorf("worktree list after the run's end, want the work tree and its slot, kept for the next run:\n%s", strings.Join(got, "\n"))
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("work tree after the checkouts: %q", got)
	}
}

// TestSettledIn fails a task whose gate changed a tracked file of its clean
// checkout, and not one whose gate only wrote new files there.
func TestSettledIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	one := gitops.SHA(gittest.Commit(t, dir, "one"))
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	k := newKeeper(repo, &runstate.State{RunID: "run1"})
	task := &planparse.Task{ID: "T001"}
	wt, err := k.Checkout(ctx, task, one, "gates", nil)
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, wt.dir, "report.xml", "<ok/>\n")
	if err := settledIn(ctx, task, wt); err != nil {
		t.Errorf("a gate's new file: %v", err)
	}
	gittest.WriteFile(t, wt.dir, "a.txt", "formatted\n")
	if err := settledIn(ctx, task, wt); err == nil || !strings.Contains(err.Error(), "while the gates ran: a.txt;") {
		t.Errorf("a gate's change to a.txt: %v", err)
	}
	wt.Release(ctx)
	wavepkg.DropRunWorktrees(repo, nil)
}

// TestReleaseUnlinksFirst removes a checkout's links into the work tree even
// when the slot cannot be cleaned, and does not use that slot again.
func TestReleaseUnlinksFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, ".gitignore", "node_modules/\n")
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	one := gitops.SHA(gittest.Commit(t, dir, "one"))
	gittest.WriteFile(t, dir, "node_modules/x/index.js", "x\n")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	k := newKeeper(repo, &runstate.State{RunID: "run1"})
	task := &planparse.Task{ID: "T001"}
	wt, err := k.Checkout(ctx, task, one, "gates", []string{"node_modules/"})
	if err != nil {
		t.Fatal(err)
	}
	wt.sha = gitops.SHA(strings.Repeat("1", len(one))) // no such commit: the clean fails
	wt.Release(ctx)
	if _, err := os.Lstat(filepath.Join(wt.dir, "node_modules")); err == nil {
		t.Error("the link is still in the slot")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules/x/index.js")); err != nil {
		t.Errorf("the work tree's node_modules: %v", err)
	}
	next, err := k.Checkout(ctx, task, one, "gates", nil)
	if err != nil {
		t.Fatal(err)
	}
	if next.dir == wt.dir {
		t.Errorf("a slot that could not be cleaned was used again: %s", next.dir)
	}
	next.Release(ctx)
	wavepkg.DropRunWorktrees(repo, nil)
	if got := gittest.Worktrees(t, dir); len(got) != 3 {
		t.Errorf("worktree list after the run's end, want the work tree and both slots, cleaned:\n%s", strings.Join(got, "\n"))
	}
}
