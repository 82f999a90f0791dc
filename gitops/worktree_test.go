package gitops

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// Runs in several work trees of one repository add slots named alike
// (slot1 under each pool) at once: git names their administrative
// directories after slot1, and without a lock across them one add reads
// another's half-written files and fails ("failed to read
// .git/worktrees/slot1/commondir"). Each opens the repository, as
// separate planx processes would; the lock is a file's, across them.
func TestWorktreesAddAlikeAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	sha := SHA(gittest.Commit(t, dir, "base"))
	pools := t.TempDir()
	owners := []string{"one", "two", "three", "four", "five", "six"}
	for i := range 15 {
		errs := make(chan error, len(owners))
		for _, owner := range owners {
			go func() {
				r, err := Open(ctx, dir)
				if err == nil {
					err = r.Worktrees().AddEmpty(ctx, filepath.Join(pools, owner, fmt.Sprintf("slot%d", i)), sha)
				}
				errs <- err
			}()
		}
		for range owners {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", i, err)
			}
		}
	}
	out := gittest.Git(t, dir, "worktree", "list", "--porcelain")
	if n := strings.Count(out, "worktree "+pools); n != 15*len(owners) {
		t.Errorf("%d work trees under the pools, want %d:\n%s", n, 15*len(owners), out)
	}
}
