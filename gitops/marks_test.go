package gitops

import (
	"context"
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
