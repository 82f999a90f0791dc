package wave

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/progress"
)

// repoAt makes a repository with two commits and opens it.
func repoAt(t *testing.T) (repo *gitops.Repo, one, two gitops.SHA) {
	t.Helper()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	one = gitops.SHA(gittest.Commit(t, dir, "one"))
	gittest.WriteFile(t, dir, "b.txt", "b\n")
	two = gitops.SHA(gittest.Commit(t, dir, "two"))
	repo, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo, one, two
}

func TestPoolTakePutReuses(t *testing.T) {
	t.Parallel()
	repo, one, two := repoAt(t)
	ctx := context.Background()
	p := NewPool(repo)
	a, err := p.Take(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(PoolDir(repo), "slot1"); a != want {
		t.Errorf("first slot at %s, want %s", a, want)
	}
	if got := gittest.Git(t, a, "rev-parse", "HEAD"); got != string(one) {
		t.Errorf("slot at %s, want %s", got, one)
	}
	if _, err := os.Stat(filepath.Join(a, "b.txt")); err == nil {
		t.Error("b.txt in a slot at the first commit")
	}
	// Taken while the first is out: a second slot.
	b, err := p.Take(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	if b == a {
		t.Fatalf("two takes gave the same slot %s", a)
	}
	gittest.WriteFile(t, a, "left.txt", "junk\n")
	gittest.WriteFile(t, a, "a.txt", "changed\n")
	p.Put(a)
	c, err := p.Take(ctx, two)
	if err != nil {
		t.Fatal(err)
	}
	if c != a {
		t.Errorf("take after put gave %s, want the slot given back %s", c, a)
	}
	if got := gittest.Git(t, c, "rev-parse", "HEAD"); got != string(two) {
		t.Errorf("reused slot at %s, want %s", got, two)
	}
	if got := gittest.Git(t, c, "status", "--porcelain", "--ignored"); got != "" {
		t.Errorf("reused slot holds what its last use left: %q", got)
	}
	p.Put(b)
	p.Put(c)
	if got := gittest.Worktrees(t, repo.Root); len(got) != 3 {
		t.Errorf("worktree list, want the work tree and two slots:\n%s", strings.Join(got, "\n"))
	}
	gittest.WriteFile(t, b, "left.txt", "junk\n")
	DropRunWorktrees(repo, nil)
	if got := gittest.Worktrees(t, repo.Root); len(got) != 3 {
		t.Errorf("worktree list after the run's end, want the slots kept for the next run:\n%s", strings.Join(got, "\n"))
	}
	if got := gittest.Git(t, b, "status", "--porcelain", "--ignored"); got != "" {
		t.Errorf("a slot after the run's end holds what its last use left: %q", got)
	}
	if err := RemovePool(repo, PoolDir(repo)); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Worktrees(t, repo.Root); len(got) != 1 {
		t.Errorf("worktree list after the pool's removal, want the work tree alone:\n%s", strings.Join(got, "\n"))
	}
}

// A take on a cancelled context takes nothing: the pool is as it was.
func TestPoolTakeCancelled(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	p := NewPool(repo)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Take(ctx, one); !errors.Is(err, context.Canceled) {
		t.Errorf("take on a cancelled context: %v", err)
	}
	if got := gittest.Worktrees(t, repo.Root); len(got) != 1 {
		t.Errorf("worktree list after a cancelled take:\n%s", strings.Join(got, "\n"))
	}
	if _, err := p.Take(context.Background(), one); err != nil {
		t.Fatal(err)
	}
	DropRunWorktrees(repo, nil)
}

// Slots taken at once are all made, each clean at its commit.
func TestPoolTakeConcurrent(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	p := NewPool(repo)
	dirs := make([]string, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range dirs {
		wg.Go(func() { dirs[i], errs[i] = p.Take(context.Background(), one) })
	}
	wg.Wait()
	seen := map[string]bool{}
	for i, d := range dirs {
		if errs[i] != nil {
			t.Fatalf("take %d: %v", i, errs[i])
		}
		if seen[d] {
			t.Errorf("slot %s taken twice", d)
		}
		seen[d] = true
		if got := gittest.Git(t, d, "rev-parse", "HEAD"); got != string(one) {
			t.Errorf("slot %s at %s, want %s", d, got, one)
		}
	}
	DropRunWorktrees(repo, nil)
}

func TestPoolKeep(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	ctx := context.Background()
	p := NewPool(repo)
	slot, err := p.Take(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, slot, "work.txt", "the task's work\n")
	dir := Dir(repo, "run1", "T001")
	// A work tree an earlier attempt left under the task's name is replaced.
	if err := FreshWorktree(ctx, repo, dir, one); err != nil {
		t.Fatal(err)
	}
	if err := p.Keep(ctx, slot, dir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "work.txt")); err != nil || string(b) != "the task's work\n" {
		t.Errorf("work.txt in the kept work tree: %q, %v", b, err)
	}
	if _, err := os.Stat(slot); err == nil {
		t.Errorf("the slot %s is still there after keep", slot)
	}
	next, err := p.Take(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	if next == slot || next == dir {
		t.Errorf("take after keep gave %s, want a new slot", next)
	}
	// Another run's work trees stay while it is busy.
	if err := FreshWorktree(ctx, repo, Dir(repo, "run2", "T002"), one); err != nil {
		t.Fatal(err)
	}
	DropRunWorktrees(repo, map[string]bool{"run2": true})
	if got := gittest.Worktrees(t, repo.Root); len(got) != 3 {
		t.Errorf("worktree list, want the work tree, the pool's slot and run2's:\n%s", strings.Join(got, "\n"))
	}
	DropRunWorktrees(repo, nil)
	if got := gittest.Worktrees(t, repo.Root); len(got) != 2 {
		t.Errorf("worktree list after both runs:\n%s", strings.Join(got, "\n"))
	}
}

// A work tree deleted behind git's back is forgotten before the pool
// adds a slot there again.
func TestPoolRepairsDeleted(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	ctx := context.Background()
	if err := FreshWorktree(ctx, repo, filepath.Join(PoolDir(repo), "slot1"), one); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(PoolDir(repo), "slot1")); err != nil {
		t.Fatal(err)
	}
	p := NewPool(repo)
	slot, err := p.Take(ctx, one)
	if err != nil {
		t.Fatalf("take where a deleted work tree was: %v", err)
	}
	if got := gittest.Git(t, slot, "rev-parse", "HEAD"); got != string(one) {
		t.Errorf("slot at %s, want %s", got, one)
	}
	DropRunWorktrees(repo, nil)
}

func TestDropSlots(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	ctx := context.Background()
	p := NewPool(repo)
	kept, _ := p.Take(ctx, one)
	stuck, _ := p.Take(ctx, one)
	clean, _ := p.Take(ctx, one)
	failed := Dir(repo, "run1", "T001")
	if err := FreshWorktree(ctx, repo, failed, one); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	keep := func(_ context.Context, dir, name string) (string, error) {
		switch dir {
		case kept:
			return "refs/planx/runs/run1/worktrees/" + name, nil
		case stuck:
			return "", errors.New("disk full")
		case failed:
			t.Errorf("DropSlots kept the failed task's work tree %s", dir)
		}
		return "", nil
	}
	for _, dir := range []string{kept, stuck, clean} {
		gittest.WriteFile(t, dir, "work.txt", "a stopped task's work\n")
	}
	DropSlots(repo, "run1", keep, progress.New(progress.Output{Out: &out}))
	for dir, want := range map[string]string{kept: "", stuck: "?? work.txt", clean: ""} {
		if got := gittest.Git(t, dir, "status", "--porcelain", "--ignored"); got != want {
			t.Errorf("%s after DropSlots holds %q, want %q (cleaned, unless what it holds could not be kept)", dir, got, want)
		}
	}
	if _, err := os.Stat(failed); err != nil {
		t.Errorf("the failed task's work tree is gone after DropSlots: %v", err)
	}
	for _, want := range []string{"its work tree " + filepath.Base(kept) + " are kept at refs/planx/runs/run1/worktrees/" + filepath.Base(kept),
		"the work tree " + Rel(repo, stuck) + " of a stopped task is left as it is: what it holds could not be kept: disk full"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	DropRunWorktrees(repo, nil)
}

func TestKeepFailed(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	ctx := context.Background()
	var out strings.Builder
	pr := progress.New(progress.Output{Out: &out})
	calls := 0
	keep := func(_ context.Context, dir, name string) (string, error) {
		calls++
		return "refs/planx/runs/run1/worktrees/" + name, nil
	}
	if err := KeepFailed(ctx, repo, "run1", "T001", keep, pr); err != nil || calls != 0 {
		t.Errorf("no work tree: err %v, %d keeps", err, calls)
	}
	dir := Dir(repo, "run1", "T001")
	if err := FreshWorktree(ctx, repo, dir, one); err != nil {
		t.Fatal(err)
	}
	if err := KeepFailed(ctx, repo, "run1", "T001", keep, pr); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("the failed task's work tree is left after it was kept")
	}
	if want := "planx: the work tree T001 failed in (" + Rel(repo, dir) + ") is kept at refs/planx/runs/run1/worktrees/T001"; !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
	if err := FreshWorktree(ctx, repo, dir, one); err != nil {
		t.Fatal(err)
	}
	refuse := func(context.Context, string, string) (string, error) { return "", errors.New("disk full") }
	if err := KeepFailed(ctx, repo, "run1", "T001", refuse, pr); err == nil || !strings.Contains(err.Error(), "T001 failed in holds: disk full") {
		t.Errorf("a keep that failed: %v", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Error("a work tree whose keep failed was removed")
	}
	DropRunWorktrees(repo, nil)
}

func TestKept(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	if got := Kept(repo, "run1", "T001"); got != "" {
		t.Errorf("Kept with no work tree = %q", got)
	}
	if err := FreshWorktree(context.Background(), repo, Dir(repo, "run1", "T001"), one); err != nil {
		t.Fatal(err)
	}
	if got, want := Kept(repo, "run1", "T001"), filepath.Join(".git", "planx", "worktrees", "run1", "T001"); got != want {
		t.Errorf("Kept = %q, want %q", got, want)
	}
	DropRunWorktrees(repo, nil)
}
