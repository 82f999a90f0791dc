package wave

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// worktree_setup runs once in a slot for the same command and manifests:
// the next use gets back what it installed; a changed manifest runs it
// again. Between uses the slot is clean.
func TestSetupOncePerSlot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, ".gitignore", "node_modules/\n")
	gittest.WriteFile(t, dir, "package-lock.json", "{\"v\": 1}\n")
	one := gitops.SHA(gittest.Commit(t, dir, "one"))
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	two := gitops.SHA(gittest.Commit(t, dir, "two: no manifest changed"))
	gittest.WriteFile(t, dir, "package-lock.json", "{\"v\": 2}\n")
	three := gitops.SHA(gittest.Commit(t, dir, "three: the lock file changed"))
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"package.json", "package-lock.json"}
	runs := 0
	use := func(p *Pool, rev gitops.SHA) (ran bool) {
		t.Helper()
		slot, err := p.Take(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		key := SetupKey(slot, "npm ci", names)
		ran, err = p.Setup(slot, key, []string{"node_modules/"}, func() error {
			runs++
			gittest.WriteFile(t, slot, "node_modules/x/index.js", "installed\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(slot, "node_modules/x/index.js")); err != nil || string(b) != "installed\n" {
			t.Errorf("node_modules in the slot after setup (ran %v): %q, %v", ran, b, err)
		}
		// Released as taskgate's Slot does: checked out afresh, then put back.
		if err := p.Checkout(ctx, slot, rev); err != nil {
			t.Fatal(err)
		}
		if got := gittest.Git(t, slot, "status", "--porcelain", "--ignored"); got != "" {
			t.Errorf("slot after release holds %q", got)
		}
		p.Put(slot)
		return ran
	}
	p := NewPool(repo)
	if !use(p, one) {
		t.Error("the first setup in a new slot did not run")
	}
	if use(p, two) {
		t.Error("setup ran again on the same manifests in the same slot")
	}
	// The next run's pool: the slot remembers.
	if use(NewPool(repo), two) {
		t.Error("setup ran again in the next run on the same manifests")
	}
	if !use(NewPool(repo), three) {
		t.Error("setup did not run again when the lock file changed")
	}
	// Back to the first manifests, then the changed ones again (a plan
	// whose task changes the lock file, wave after wave): the slot kept
	// both setups.
	if use(NewPool(repo), two) || use(NewPool(repo), three) {
		t.Error("setup ran again for manifests the slot had installed before")
	}
	if runs != 2 {
		t.Errorf("setup ran %d times, want 2", runs)
	}
	if SetupKey(dir, "npm ci", names) == SetupKey(dir, "npm install", names) {
		t.Error("another command has the same key")
	}
}

// A slot given back as its use left it (Put: not cleaned, as the gates'
// checkout of a staged tree and a task's slot are) keeps its setup: the environments go aside at
// once, and what its last use left is gone by its next Take, or by the
// run's end (CleanSlots), after which the next run's pool restores them.
func TestPutSlotKeepsSetup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, ".gitignore", "node_modules/\n")
	gittest.WriteFile(t, dir, "package-lock.json", "{\"v\": 1}\n")
	one := gitops.SHA(gittest.Commit(t, dir, "one"))
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	envs := []string{"node_modules/"}
	runs := 0
	use := func(p *Pool) string {
		t.Helper()
		slot, err := p.Take(ctx, one)
		if err != nil {
			t.Fatal(err)
		}
		if got := gittest.Git(t, slot, "status", "--porcelain", "--ignored"); got != "" {
			t.Errorf("slot taken holds %q", got)
		}
		_, err = p.Setup(slot, SetupKey(slot, "npm ci", []string{"package-lock.json"}), envs, func() error {
			runs++
			gittest.WriteFile(t, slot, "node_modules/x/index.js", "installed\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		gittest.WriteFile(t, slot, "report.xml", "a gate's output\n")
		gittest.WriteFile(t, slot, "package-lock.json", "{\"v\": 9}\n") // a tracked file a gate changed
		p.Put(slot)
		if _, err := os.Stat(filepath.Join(slot, "node_modules")); err == nil {
			t.Error("the setup's environment is still in a slot given back")
		}
		return slot
	}
	p := NewPool(repo)
	use(p)
	use(p) // the same pool's next Take cleaned it
	slot := use(NewPool(repo))
	CleanSlots(repo)
	if got := gittest.Git(t, slot, "status", "--porcelain", "--ignored"); got != "" {
		t.Errorf("slot after the run's end holds %q", got)
	}
	use(NewPool(repo))
	if runs != 1 {
		t.Errorf("setup ran %d times, want 1", runs)
	}
}
