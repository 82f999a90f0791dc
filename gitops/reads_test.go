package gitops

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// Notes reads in one batch what git notes show reads one by one.
func TestNotesBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	a := SHA(gittest.Commit(t, dir, "one"))
	b := SHA(gittest.Commit(t, dir, "two"))
	c := SHA(gittest.Commit(t, dir, "three"))
	if got, err := r.Notes().ShowAll(ctx, "refs/notes/planx", []SHA{a, b}); err != nil || len(got) != 0 {
		t.Fatalf("no notes ref: %v %v", got, err)
	}
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "note of a\nsecond line", string(a))
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "", "--allow-empty", string(c))
	got, err := r.Notes().ShowAll(ctx, "refs/notes/planx", []SHA{a, b, c})
	if err != nil || len(got) != 2 {
		t.Fatalf("Notes = %q, %v", got, err)
	}
	for _, s := range []SHA{a, c} {
		want := gittest.Git(t, dir, "notes", "--ref=planx", "show", string(s))
		if strings.TrimRight(string(got[s]), "\n") != want {
			t.Errorf("note of %s = %q, git says %q", s.Short(), got[s], want)
		}
	}
}

// TreeWithout matches the tree git writes after removing the paths.
func TestTreeWithout(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "plan.md", "p\n")
	gittest.WriteFile(t, dir, "memory-bank/execute/log.md", "l\n")
	gittest.WriteFile(t, dir, "memory-bank/keep.md", "k\n")
	gittest.WriteFile(t, dir, "src/a.go", "a\n")
	sha := gittest.Commit(t, dir, "one")
	got, err := r.Objects().TreeWithout(SHA(gittest.Git(t, dir, "rev-parse", sha+"^{tree}")), "plan.md", "memory-bank/execute/log.md", "absent.txt")
	if err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "rm", "-q", "--cached", "plan.md", "memory-bank/execute/log.md")
	if want := gittest.Git(t, dir, "write-tree"); got != SHA(want) {
		t.Fatalf("TreeWithout = %s, git write-tree after git rm --cached = %s", got, want)
	}
	other, err := r.Objects().TreeWithout(SHA(gittest.Git(t, dir, "rev-parse", sha+"^{tree}")), "plan.md")
	if err != nil || other == got {
		t.Errorf("different paths removed, same key: %s %v", other, err)
	}
	gittest.Git(t, dir, "reset", "-q")
	gittest.WriteFile(t, dir, "memory-bank/execute/log.md", "a different log\n")
	gittest.WriteFile(t, dir, "plan.md", "ticked\n")
	gittest.Git(t, dir, "add", "-A")
	again, err := r.Objects().TreeWithout(SHA(gittest.Git(t, dir, "write-tree")), "plan.md", "memory-bank/execute/log.md")
	if err != nil || again != got {
		t.Errorf("same work, other plan and log: key %s, want %s (%v)", again, got, err)
	}
}

// Unpushed is what git rev-list --first-parent HEAD --not --remotes lists.
func TestUnpushed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.Commit(t, dir, "one")
	remote := t.TempDir()
	gittest.Git(t, remote, "init", "-q", "--bare")
	gittest.Git(t, dir, "remote", "add", "origin", remote)
	gittest.Git(t, dir, "push", "-q", "origin", "HEAD:refs/heads/main")
	gittest.Git(t, dir, "fetch", "-q", "origin")
	gittest.Commit(t, dir, "two")
	gittest.Commit(t, dir, "three")
	head := SHA(gittest.Git(t, dir, "rev-parse", "HEAD"))
	cs, err := r.History().Unpushed(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, string(c.SHA))
	}
	want := strings.Fields(gittest.Git(t, dir, "rev-list", "--first-parent", "HEAD", "--not", "--remotes"))
	if !slices.Equal(got, want) || len(got) != 2 {
		t.Errorf("Unpushed = %v, git says %v", got, want)
	}
	if has, err := r.History().HasRemoteRefs(ctx); err != nil || !has {
		t.Errorf("HasRemoteRefs = %v, %v", has, err)
	}
}

// Added tells notes added from notes changed or removed.
func TestNotesAdded(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	ctx := context.Background()
	a := gittest.Commit(t, dir, "a")
	b := gittest.Commit(t, dir, "b")
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "a", a)
	n1 := SHA(gittest.Git(t, dir, "rev-parse", "refs/notes/planx"))
	if added, other, err := r.Notes().Added(ctx, "", n1); err != nil || other || !slices.Equal(added, []SHA{SHA(a)}) {
		t.Errorf("from nothing: %v %v %v", added, other, err)
	}
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "b", b)
	n2 := SHA(gittest.Git(t, dir, "rev-parse", "refs/notes/planx"))
	if added, other, err := r.Notes().Added(ctx, n1, n2); err != nil || other || !slices.Equal(added, []SHA{SHA(b)}) {
		t.Errorf("one added: %v %v %v", added, other, err)
	}
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-f", "-m", "forged", a)
	n3 := SHA(gittest.Git(t, dir, "rev-parse", "refs/notes/planx"))
	if _, other, err := r.Notes().Added(ctx, n2, n3); err != nil || !other {
		t.Errorf("a changed note went unseen: %v %v", other, err)
	}
}
