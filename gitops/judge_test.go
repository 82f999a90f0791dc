package gitops

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

func TestHiddenEntriesAndClearHidden(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	ctx := context.Background()
	gittest.WriteFile(t, dir, "a.sh", "a\n")
	gittest.WriteFile(t, dir, "b.sh", "b\n")
	gittest.WriteFile(t, dir, "c.sh", "c\n")
	gittest.Commit(t, dir, "files")
	gittest.Git(t, dir, "update-index", "--skip-worktree", "a.sh")
	gittest.Git(t, dir, "update-index", "--assume-unchanged", "b.sh")
	got, err := r.Index().HiddenEntries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.sh (skip-worktree)", "b.sh (assume-unchanged)"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("HiddenEntries = %q, want %q", got, want)
	}
	if err := r.Index().ClearHidden(ctx, got); err != nil {
		t.Fatal(err)
	}
	// The oracle: git ls-files -v tags every entry H again.
	out := gittest.Git(t, dir, "ls-files", "-v")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "H ") {
			t.Errorf("after ClearHidden: %q", l)
		}
	}
}

func TestIgnoredFilesAndStageAgain(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	ctx := context.Background()
	gittest.WriteFile(t, dir, ".gitignore", "*.local\nbuild/\n")
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	gittest.Commit(t, dir, "base")
	gittest.WriteFile(t, dir, "x.local", "secret\n")
	gittest.WriteFile(t, dir, "build/out/bin", "x\n")
	got, err := r.Index().IgnoredFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"build/", "x.local"}; !reflect.DeepEqual(got, want) {
		t.Errorf("IgnoredFiles = %q, want %q", got, want)
	}
	gittest.WriteFile(t, dir, "a.txt", "changed\n")
	gittest.WriteFile(t, dir, "new.txt", "n\n")
	if err := r.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	paths, ok, err := r.Index().StageAgain(ctx)
	if err != nil || !ok || len(paths) != 0 {
		t.Fatalf("StageAgain on a staged tree = %q, %v, %v; want nothing", paths, ok, err)
	}
	gittest.WriteFile(t, dir, "a.txt", "changed after\n")
	if err := os.Remove(filepath.Join(dir, "new.txt")); err != nil {
		t.Fatal(err)
	}
	paths, ok, err = r.Index().StageAgain(ctx)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if want := []string{"a.txt", "new.txt"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("StageAgain = %q, want %q", paths, want)
	}
	in, err := r.Objects().InTree(ctx, SHA(strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))), []string{"a.txt", "new.txt", ".gitignore"})
	if err != nil {
		t.Fatal(err)
	}
	if !in["a.txt"] || !in[".gitignore"] || in["new.txt"] {
		t.Errorf("InTree = %v", in)
	}
}

func TestPinOverridesLaterConfig(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	ctx := context.Background()
	r.Config().Pin("core.hooksPath", "/pinned/hooks")
	gittest.Git(t, dir, "config", "core.hooksPath", "/elsewhere")
	out, err := r.Git(ctx, nil, "config", "core.hooksPath")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "/pinned/hooks" {
		t.Errorf("git sees core.hooksPath=%q, want the pinned /pinned/hooks", got)
	}
	if r.Config().HooksPath() != "/pinned/hooks" {
		t.Errorf("HooksPath = %q", r.Config().HooksPath())
	}
}
