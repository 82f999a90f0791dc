package gitops

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
)

// The stamp of the replace refs changes with every way git writes one —
// made, moved, deleted, packed — and with a write that puts the old
// modification time back; a branch's move leaves it as it was. Read as if
// an hour had passed, so that no file is too new to be trusted.
func TestRefsStampFollowsReplaceRefs(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a")
	gittest.Git(t, dir, "add", "a.txt")
	gittest.Git(t, dir, "commit", "-qm", "a")
	gittest.WriteFile(t, dir, "a.txt", "b")
	gittest.Git(t, dir, "commit", "-qam", "b")
	stamp := func() string {
		t.Helper()
		s, ok := refsStamp(r.CommonDir, ReplaceRefs, time.Now().Add(time.Hour))
		if !ok {
			t.Fatal("the stamp is not trusted an hour later")
		}
		return s
	}
	changed := func(what string, f func()) {
		t.Helper()
		before := stamp()
		f()
		if stamp() == before {
			t.Errorf("%s: the stamp did not change", what)
		}
	}
	same := func(what string, f func()) {
		t.Helper()
		before := stamp()
		f()
		if stamp() != before {
			t.Errorf("%s: the stamp changed", what)
		}
	}
	blob := func(rev string) string { return gittest.Git(t, dir, "rev-parse", rev) }
	changed("a replace ref made", func() { gittest.Git(t, dir, "replace", blob("HEAD:a.txt"), blob("HEAD~1:a.txt")) })
	changed("moved", func() { gittest.Git(t, dir, "replace", "-f", blob("HEAD:a.txt"), blob("HEAD~1")) })
	changed("packed", func() { gittest.Git(t, dir, "pack-refs", "--all") })
	changed("deleted", func() { gittest.Git(t, dir, "replace", "-d", blob("HEAD:a.txt")) })
	same("a branch moved", func() { gittest.Git(t, dir, "branch", "-f", "other", "HEAD~1") })
	ref := filepath.Join(r.CommonDir, "refs", "replace", blob("HEAD~1"))
	gittest.Git(t, dir, "update-ref", "refs/replace/"+blob("HEAD~1"), blob("HEAD"))
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(ref, old, old); err != nil {
		t.Fatal(err)
	}
	changed("rewritten in place, its time put back", func() {
		if err := os.WriteFile(ref, []byte(blob("HEAD~1")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(ref, old, old); err != nil {
			t.Fatal(err)
		}
	})
	// Just written: too new to be trusted now.
	if _, ok := refsStamp(r.CommonDir, ReplaceRefs, time.Now()); ok {
		t.Error("a replace ref written a moment ago is trusted")
	}
}

// List gives what git lists after every change, the listing it reuses
// included.
func TestListSeesEveryChange(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a")
	gittest.Git(t, dir, "add", "a.txt")
	gittest.Git(t, dir, "commit", "-qm", "a")
	ctx := context.Background()
	list := func(want int) {
		t.Helper()
		refs, err := r.Refs().List(ctx, ReplaceRefs)
		if err != nil {
			t.Fatal(err)
		}
		if len(refs) != want {
			t.Errorf("listed %v, want %d refs", refs, want)
		}
	}
	list(0)
	list(0)
	head := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Git(t, dir, "update-ref", "refs/replace/"+head, head)
	list(1)
	gittest.Git(t, dir, "update-ref", "-d", "refs/replace/"+head)
	list(0)
}

// A listing is reused under the stamp it was kept with, and only that.
func TestSeenRefsReuse(t *testing.T) {
	t.Parallel()
	var s seenRefs
	s.keep("refs/replace/", "stamp 1", map[string]SHA{"refs/replace/x": "y"})
	if refs, ok := s.reuse("refs/replace/", "stamp 1"); !ok || refs["refs/replace/x"] != "y" {
		t.Errorf("not reused under its stamp: %v %v", refs, ok)
	}
	if _, ok := s.reuse("refs/replace/", "stamp 2"); ok {
		t.Error("reused under another stamp")
	}
	refs, _ := s.reuse("refs/replace/", "stamp 1")
	refs["refs/replace/z"] = "w"
	if again, _ := s.reuse("refs/replace/", "stamp 1"); len(again) != 1 {
		t.Error("a caller's change to a listing changed the kept one")
	}
	if _, ok := (*seenRefs)(nil).reuse("refs/replace/", "stamp 1"); ok {
		t.Error("no cache reused something")
	}
}
