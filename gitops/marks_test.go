package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// SnapshotAll sees an assume-unchanged file's work-tree bytes, which
// Snapshot (git add) does not; neither touches the real index or its flags.
func TestSnapshotAllSeesAssumeUnchanged(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	ctx := context.Background()
	gittest.WriteFile(t, dir, "conf.txt", "base\n")
	gittest.WriteFile(t, dir, "other.txt", "o\n")
	head := SHA(gittest.Commit(t, dir, "files"))
	gittest.Git(t, dir, "update-index", "--assume-unchanged", "conf.txt")
	gittest.WriteFile(t, dir, "conf.txt", "local\n")
	gittest.WriteFile(t, dir, "other.txt", "changed\n")
	flags := gittest.Git(t, dir, "ls-files", "-v")

	plain, err := r.Commits().Snapshot(ctx, "plain\n", head)
	if err != nil {
		t.Fatal(err)
	}
	all, err := r.Commits().SnapshotAll(ctx, "all\n", head)
	if err != nil {
		t.Fatal(err)
	}
	only, err := r.Commits().SnapshotAll(ctx, "only\n", head, "conf.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rev         SHA
		conf, other string
	}{{plain, "base", "changed"}, {all, "local", "changed"}, {only, "local", "o"}} {
		if got := gittest.Git(t, dir, "show", string(c.rev)+":conf.txt"); strings.TrimSpace(got) != c.conf {
			t.Errorf("%s:conf.txt = %q, want %q", c.rev.Short(), got, c.conf)
		}
		if got := gittest.Git(t, dir, "show", string(c.rev)+":other.txt"); strings.TrimSpace(got) != c.other {
			t.Errorf("%s:other.txt = %q, want %q", c.rev.Short(), got, c.other)
		}
	}
	if got := gittest.Git(t, dir, "ls-files", "-v"); got != flags {
		t.Errorf("the real index's flags changed:\n%s\nwant\n%s", got, flags)
	}
	fsck(t, dir)
}

// PutMarks and RestoreWorktree put back what a reset and read-tree drop:
// the flags, the intent-to-add entries and an assume-unchanged file's bytes.
func TestPutMarksRestoresFlagsAndIntentToAdd(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	ctx := context.Background()
	gittest.WriteFile(t, dir, "conf.txt", "base\n")
	gittest.WriteFile(t, dir, "sparse.txt", "s\n")
	head := SHA(gittest.Commit(t, dir, "files"))
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
	m := MarksOf(hidden, []string{"-new file.txt", "gone.txt"})
	saved, err := r.Commits().SnapshotAll(ctx, "hidden\n", head, m.AssumeUnchanged...)
	if err != nil {
		t.Fatal(err)
	}

	// What abort's reset does: flags, the intent-to-add entry and the
	// assume-unchanged file's bytes are gone.
	gittest.Git(t, dir, "read-tree", string(head))
	gittest.Git(t, dir, "checkout", "--", "conf.txt")
	if err := r.RestoreWorktree(ctx, saved, m.AssumeUnchanged); err != nil {
		t.Fatal(err)
	}
	if err := r.Index().PutMarks(ctx, m); err != nil {
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
