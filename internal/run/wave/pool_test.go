package wave

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
)

// A second pool over the same repository (the next run) reuses the slots
// the first left, checked out afresh at the next base.
func TestPoolOutlivesRun(t *testing.T) {
	t.Parallel()
	repo, one, two := repoAt(t)
	ctx := context.Background()
	first := NewPool(repo)
	a, err := first.Take(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, a, "left.txt", "what the first run's task left\n")
	first.Put(a)
	marker := filepath.Join(a, ".git")
	before, err := os.Stat(marker)
	if err != nil {
		t.Fatal(err)
	}
	second := NewPool(repo)
	b, err := second.Take(ctx, two)
	if err != nil {
		t.Fatal(err)
	}
	if b != a {
		t.Errorf("the second pool took %s, want the first's slot %s", b, a)
	}
	if after, err := os.Stat(marker); err != nil || !os.SameFile(before, after) {
		t.Errorf("the slot was made again (%v), want it reused", err)
	}
	if got := gittest.Git(t, b, "rev-parse", "HEAD"); got != string(two) {
		t.Errorf("reused slot at %s, want %s", got, two)
	}
	if got := gittest.Git(t, b, "status", "--porcelain", "--ignored"); got != "" {
		t.Errorf("reused slot holds what the first run left: %q", got)
	}
	// A second slot is numbered after those on disk.
	c, err := second.Take(ctx, two)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(PoolDir(repo), "slot2"); c != want {
		t.Errorf("second slot at %s, want %s", c, want)
	}
}

// A slot unused longer than the idle time goes at a run's start; a recent
// one stays, and below 0 every one stays.
func TestPruneIdle(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	ctx := context.Background()
	p := NewPool(repo)
	old, _ := p.Take(ctx, one)
	recent, _ := p.Take(ctx, one)
	p.Put(old)
	p.Put(recent)
	now := time.Now()
	if err := os.Chtimes(old, now.Add(-48*time.Hour), now.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if n := PruneIdle(repo, -1, now); n != 0 {
		t.Errorf("idle below 0 removed %d slot(s), want none", n)
	}
	if n := PruneIdle(repo, 0, now); n != 0 {
		t.Errorf("the default idle time removed %d slot(s) two days old, want none", n)
	}
	if n := PruneIdle(repo, 24*time.Hour, now); n != 1 {
		t.Errorf("idle 24h removed %d slot(s), want 1", n)
	}
	if got := Slots(repo); !slices.Equal(got, []string{recent}) {
		t.Errorf("slots after pruning: %q, want %q", got, recent)
	}
	if got := gittest.Worktrees(t, repo.Root); len(got) != 2 {
		t.Errorf("worktree list, want the work tree and the recent slot:\n%s", strings.Join(got, "\n"))
	}
}

// A slot whose directory or git entry a crash broke is made again, never
// trusted.
func TestPoolRemakesBroken(t *testing.T) {
	t.Parallel()
	repo, one, two := repoAt(t)
	ctx := context.Background()
	p := NewPool(repo)
	a, _ := p.Take(ctx, one)
	b, _ := p.Take(ctx, one)
	p.Put(a)
	p.Put(b)
	// a: git's entry gone (its administrative directory); b: a half-made
	// checkout whose .git names no repository.
	admin := strings.TrimSpace(gittest.Git(t, a, "rev-parse", "--absolute-git-dir"))
	if err := os.RemoveAll(admin); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, ".git"), []byte("gitdir: /nonexistent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	next := NewPool(repo)
	for range 2 {
		dir, err := next.Take(ctx, two)
		if err != nil {
			t.Fatalf("take over a broken slot: %v", err)
		}
		if got := gittest.Git(t, dir, "rev-parse", "HEAD"); got != string(two) {
			t.Errorf("slot %s at %s, want %s", dir, got, two)
		}
		if got := gittest.Git(t, dir, "status", "--porcelain", "--ignored"); got != "" {
			t.Errorf("remade slot %s holds %q", dir, got)
		}
	}
	if got := gittest.Worktrees(t, repo.Root); len(got) != 3 {
		t.Errorf("worktree list, want the work tree and the two slots made again:\n%s", strings.Join(got, "\n"))
	}
}

// prune takes this work tree's pool unless a run is in progress, and the
// pool of a linked work tree that is gone.
func TestPrunable(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	p := NewPool(repo)
	a, _ := p.Take(context.Background(), one)
	p.Put(a)
	gone := filepath.Join(repo.CommonDir, "planx", "slots", "wt-gone")
	live := filepath.Join(repo.CommonDir, "planx", "slots", "wt-live")
	for _, d := range []string{gone, live, filepath.Join(repo.CommonDir, "worktrees", "live")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := Prunable(repo, true); !slices.Equal(got, []string{gone}) {
		t.Errorf("prunable with a run in progress: %q, want %q", got, gone)
	}
	if got := Prunable(repo, false); !slices.Equal(got, []string{PoolDir(repo), gone}) {
		t.Errorf("prunable: %q", got)
	}
	if n, bytes := PoolSize(PoolDir(repo)); n != 1 || bytes == 0 {
		t.Errorf("pool size %d slot(s), %d bytes; want 1 and its files", n, bytes)
	}
}

// A run's end cleans the slots runs took since the last clean, and no
// other: a run that used none checks none out.
func TestCleanSlotsUsedOnly(t *testing.T) {
	t.Parallel()
	repo, one, _ := repoAt(t)
	ctx := context.Background()
	p := NewPool(repo)
	a, _ := p.Take(ctx, one)
	p.Put(a)
	if got := usedSlots(repo); !slices.Equal(got, []string{a}) {
		t.Errorf("used slots after a take: %q, want %q", got, a)
	}
	gittest.WriteFile(t, a, "left.txt", "a task's output\n")
	CleanSlots(repo)
	if got := gittest.Git(t, a, "status", "--porcelain", "--ignored"); got != "" {
		t.Errorf("a used slot after CleanSlots holds %q", got)
	}
	if got := usedSlots(repo); len(got) != 0 {
		t.Errorf("used slots after CleanSlots: %q, want none", got)
	}
	// Not taken since: nothing is checked out (what a person put there stays).
	gittest.WriteFile(t, a, "mine.txt", "a person's\n")
	CleanSlots(repo)
	if _, err := os.Stat(filepath.Join(a, "mine.txt")); err != nil {
		t.Errorf("CleanSlots cleaned a slot no run took: %v", err)
	}
}
