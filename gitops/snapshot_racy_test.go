package gitops_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// TestSnapshotSeesRacilyCleanChange: a file rewritten, to bytes of the
// same size, in the instant the index recorded it looks unchanged by its
// stat data; git compares its content because the index is no older than
// it. The snapshot works on a copy of the index and must keep that: a copy
// with a newer time made git trust the stale entry, and the snapshot held
// the old bytes (seen as a flaky baseline that missed an uncommitted fix).
// ctime is not trusted here so that the instant can be set exactly.
func TestSnapshotSeesRacilyCleanChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Git(t, dir, "config", "core.trustctime", "false")
	instant := time.Now().Add(-time.Hour).Truncate(time.Second)
	gittest.WriteFile(t, dir, "sub.txt", "2\n")
	must(t, os.Chtimes(filepath.Join(dir, "sub.txt"), instant, instant))
	head := gittest.Commit(t, dir, "base")
	must(t, os.Chtimes(filepath.Join(dir, ".git", "index"), instant, instant))
	gittest.WriteFile(t, dir, "sub.txt", "1\n")
	must(t, os.Chtimes(filepath.Join(dir, "sub.txt"), instant, instant))

	repo, err := gitops.Open(ctx, dir)
	must(t, err)
	sha, err := repo.Commits().Snapshot(ctx, "snapshot", gitops.SHA(head))
	must(t, err)
	if got := gittest.Git(t, dir, "show", string(sha)+":sub.txt"); strings.TrimSpace(got) != "1" {
		t.Fatalf("the snapshot holds sub.txt = %q, want the work tree's 1", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
