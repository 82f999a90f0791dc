package wave

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/planx-dev/planx/gitops"
)

// DefaultSlotIdle is how long a slot may stay unused before a run's start
// removes it (.planx.yaml's slot_idle): a week keeps the slots of a
// repository worked in every few days, and frees the disk of one left.
const DefaultSlotIdle = 7 * 24 * time.Hour

// PoolDir is where the slots of repo's work tree live, across runs: under
// the common git dir (never part of any work tree's status), one pool per
// work tree, since runs in different linked work trees of a repository may
// run at once. A run holds its work tree's run lock (runstate.Acquire)
// while it uses the pool, so the pool needs no lock of its own.
func PoolDir(repo *gitops.Repo) string {
	return filepath.Join(repo.CommonDir, "planx", "slots", poolOwner(repo))
}

// poolOwner names repo's work tree among the pools: "main" for the main
// work tree, "wt-<name>" for a linked one (its name under .git/worktrees).
func poolOwner(repo *gitops.Repo) string {
	if sameDir(repo.GitDir, repo.CommonDir) {
		return "main"
	}
	return "wt-" + filepath.Base(repo.GitDir)
}

// listSlots returns the slot directories (slot<k>) in root, sorted by k
// from the highest (Take reuses from the end: the lowest first), and the
// highest k.
func listSlots(root string) (dirs []string, highest int) {
	entries, _ := os.ReadDir(root)
	var ks []int
	for _, e := range entries {
		k, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "slot"))
		if err == nil && e.IsDir() && strings.HasPrefix(e.Name(), "slot") && k > 0 {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	slices.Reverse(ks)
	for _, k := range ks {
		dirs = append(dirs, filepath.Join(root, "slot"+strconv.Itoa(k)))
	}
	if len(ks) > 0 {
		highest = ks[0]
	}
	return dirs, highest
}

// Slots are the slot directories of repo's work tree's pool.
func Slots(repo *gitops.Repo) []string {
	dirs, _ := listSlots(PoolDir(repo))
	return dirs
}

// CleanSlots puts every slot of repo's work tree's pool that a run took
// since it was last cleaned back at its own commit, without a file a task
// or gate left (ignored ones too), when a run ends or stops: the slots stay
// registered with git for the next run, holding nothing of this one. A
// slot that cannot be cleaned is removed. What a stopped task left in a
// slot must be kept before (DropSlots). git's entries for slots a crash
// deleted behind its back are forgotten.
func CleanSlots(repo *gitops.Repo) {
	_, _ = forgetMissing(context.Background(), repo, PoolDir(repo))
	eachAtOnce(usedSlots(repo), func(dir string) {
		if cleanSlot(dir) != nil {
			RemoveWorktree(repo, dir)
			_ = os.Remove(usedMark(dir))
		}
	})
}

// usedMark is the file beside a slot that says a run took it since it was
// last cleaned: a slot no run took is clean, and a run that used none
// (no wave, no clean checkout) costs a stat per slot at its end, not a
// checkout of each.
func usedMark(dir string) string { return dir + ".used" }

// usedSlots are the slots of repo's work tree's pool a run took since
// they were last cleaned.
func usedSlots(repo *gitops.Repo) []string {
	var out []string
	for _, dir := range Slots(repo) {
		if _, err := os.Stat(usedMark(dir)); err == nil {
			out = append(out, dir)
		}
	}
	return out
}

// cleanSlot checks the slot at dir out afresh at its own commit.
func cleanSlot(dir string) error {
	ctx := context.Background()
	wt, err := gitops.Open(ctx, dir)
	if err != nil {
		return err
	}
	head, err := wt.Head(ctx)
	if err != nil {
		return err
	}
	if err := wt.CheckoutClean(ctx, head.SHA); err != nil {
		return err
	}
	_ = os.Remove(usedMark(dir))
	return nil
}

// eachAtOnce calls f for each dir, maxRemovals at a time: cleaning and
// removing work trees wait mostly on the file system, not on a CPU.
func eachAtOnce(dirs []string, f func(dir string)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxRemovals)
	for _, dir := range dirs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			f(dir)
		})
	}
	wg.Wait()
}

// PruneIdle removes the slots of repo's work tree's pool that no run took
// for longer than idle (0: DefaultSlotIdle; below 0: none is removed), and
// returns how many. A run calls it at its start, holding the run lock.
func PruneIdle(repo *gitops.Repo, idle time.Duration, now time.Time) int {
	if idle == 0 {
		idle = DefaultSlotIdle
	}
	if idle < 0 {
		return 0
	}
	var old []string
	for _, dir := range Slots(repo) {
		if fi, err := os.Stat(dir); err == nil && now.Sub(fi.ModTime()) > idle {
			old = append(old, dir)
		}
	}
	eachAtOnce(old, func(dir string) {
		RemoveWorktree(repo, dir)
		_ = os.RemoveAll(setupDir(dir))
		_ = os.Remove(usedMark(dir))
	})
	return len(old)
}

// Prunable are the pools planx prune may remove: this work tree's unless a
// run is in progress in it (its slots may hold a crashed task's work, which
// abort keeps), and those of linked work trees git no longer has.
func Prunable(repo *gitops.Repo, inProgress bool) []string {
	root := filepath.Join(repo.CommonDir, "planx", "slots")
	owners, _ := os.ReadDir(root)
	own := PoolDir(repo)
	var out []string
	for _, o := range owners {
		dir := filepath.Join(root, o.Name())
		switch name, linked := strings.CutPrefix(o.Name(), "wt-"); {
		case dir == own:
			if !inProgress {
				out = append(out, dir)
			}
		case linked:
			if _, err := os.Stat(filepath.Join(repo.CommonDir, "worktrees", name)); err != nil {
				out = append(out, dir)
			}
		}
	}
	return out
}

// RemovePool removes the slots of the pool at root, from disk and from
// git's list, and the pool's directory.
func RemovePool(repo *gitops.Repo, root string) error {
	dirs, _ := listSlots(root)
	eachAtOnce(dirs, func(dir string) { RemoveWorktree(repo, dir) })
	_, _ = forgetMissing(context.Background(), repo, root)
	return os.RemoveAll(root)
}
