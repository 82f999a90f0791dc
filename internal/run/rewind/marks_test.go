package rewind

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// PutMarks and restoreWorktree put back what a reset and read-tree drop:
// the flags, the intent-to-add entries and an assume-unchanged file's bytes.
func TestPutMarksRestoresFlagsAndIntentToAdd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	r, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, "conf.txt", "base\n")
	gittest.WriteFile(t, dir, "sparse.txt", "s\n")
	head := gitops.SHA(gittest.Commit(t, dir, "files"))
	gittest.Git(t, dir, "update-index", "--assume-unchanged", "conf.txt")
	gittest.Git(t, dir, "update-index", "--skip-worktree", "sparse.txt")
	gittest.WriteFile(t, dir, "conf.txt", "local\n")
	gittest.WriteFile(t, dir, "-new file.txt", "fresh\n")
	gittest.Git(t, dir, "add", "-N", "--", "-new file.txt")
	wantFlags := gittest.Git(t, dir, "ls-files", "-v")
	wantStatus := gittest.Git(t, dir, "status", "--porcelain")
	hidden, err := r.Index().HiddenEntries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := runstate.MarksOf(hidden, []string{"-new file.txt", "gone.txt"})
	saved, err := r.Commits().SnapshotAll(ctx, "hidden\n", head, m.AssumeUnchanged...)
	if err != nil {
		t.Fatal(err)
	}

	// What abort's reset does: flags, the intent-to-add entry and the
	// assume-unchanged file's bytes are gone.
	gittest.Git(t, dir, "read-tree", string(head))
	gittest.Git(t, dir, "checkout", "--", "conf.txt")
	if err := restoreWorktree(ctx, r, saved, m.AssumeUnchanged); err != nil {
		t.Fatal(err)
	}
	if err := r.Index().PutMarks(ctx, m.AssumeUnchanged, m.SkipWorktree, m.IntentToAdd); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "ls-files", "-v"); got != wantFlags {
		t.Errorf("ls-files -v:\n%s\nwant\n%s", got, wantFlags)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != wantStatus {
		t.Errorf("status:\n%s\nwant\n%s", got, wantStatus)
	}
	b, err := os.ReadFile(filepath.Join(dir, "conf.txt"))
	if err != nil || string(b) != "local\n" {
		t.Errorf("conf.txt = %q, %v; want the pre-reset bytes", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.txt")); err == nil {
		t.Error("PutMarks created a file")
	}
}
