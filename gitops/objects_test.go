package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

func TestObjects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	// CRLF and a trailing space must survive: --no-filters, even with autocrlf.
	gittest.Git(t, dir, "config", "core.autocrlf", "true")
	data := []byte("line one\r\nline two \n")
	sha, err := r.Objects().HashObject(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if want := gittest.GitInput(t, dir, string(data), "hash-object", "--no-filters", "--stdin"); string(sha) != strings.TrimSpace(want) {
		t.Errorf("HashObject = %s, git says %s", sha, want)
	}
	got, err := r.Objects().CatBlob(ctx, sha)
	if err != nil || string(got) != string(data) {
		t.Fatalf("CatBlob = %q, %v", got, err)
	}

	const ref = "refs/planx/approvals/x.md"
	if s, err := r.Refs().ResolveObject(ctx, ref); s != "" || err != nil {
		t.Errorf("missing ref: %q, %v", s, err)
	}
	if err := r.Refs().Update(ctx, ref, sha, ZeroSHA, "test"); err != nil {
		t.Fatal(err)
	}
	if s, err := r.Refs().ResolveObject(ctx, ref); s != sha || err != nil {
		t.Errorf("ResolveObject = %q, %v; want %s", s, err, sha)
	}
	if s, _ := r.Refs().Resolve(ctx, ref); s != "" {
		t.Errorf("Resolve peels to commits only, got %s for a blob", s)
	}
	fsck(t, dir)

	commit := SHA(gittest.Commit(t, dir, "c"))
	if _, err := r.Objects().CatBlob(ctx, commit); err == nil {
		t.Error("CatBlob of a commit succeeded")
	}
	if _, err := r.Objects().CatBlob(ctx, "-x"); err == nil {
		t.Error("CatBlob accepted an option-like id")
	}
	if _, err := r.Refs().ResolveObject(ctx, "--all"); err == nil {
		t.Error("ResolveObject accepted an option-like ref")
	}
}

func TestCommitterIdent(t *testing.T) {
	t.Parallel()
	r, _ := newRepo(t)
	id, err := r.Config().CommitterIdent(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// gittest pins the identity and the date (2026-01-02T03:04:05Z).
	if want := "Planx Test <test@planx.invalid> 1767323045 +0000"; id != want {
		t.Errorf("CommitterIdent = %q, want %q", id, want)
	}
}
