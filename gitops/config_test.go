package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// Pin must reach the commands of every type reached from the Repo, also
// of values taken before the pin: they share the Repo's runner.
func TestPinReachesEveryType(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	ctx := context.Background()
	refs, objects, config := r.Refs(), r.Objects(), r.Config()

	tree, err := r.Index().Tree(ctx) // the empty index: the empty tree
	if err != nil {
		t.Fatal(err)
	}
	plain, err := objects.CommitTree(ctx, tree, "before the pin\n", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := refs.Update(ctx, "refs/planx/before", plain, "", "test"); err != nil {
		t.Fatal(err)
	}
	// Without the pins: no encoding header, no reflog for refs/planx/*.
	if body := gittest.Git(t, dir, "cat-file", "commit", string(plain)); strings.Contains(body, "encoding ") {
		t.Fatalf("commit has an encoding header before any pin:\n%s", body)
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "logs", "refs", "planx", "before")); err == nil {
		t.Fatal("refs/planx/before has a reflog before any pin")
	}

	config.Pin("i18n.commitEncoding", "ISO-8859-1")
	config.Pin("core.logAllRefUpdates", "always")
	config.Pin("core.hooksPath", "/pinned/hooks")

	pinned, err := objects.CommitTree(ctx, tree, "after the pin\n", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if body := gittest.Git(t, dir, "cat-file", "commit", string(pinned)); !strings.Contains(body, "encoding ISO-8859-1") {
		t.Errorf("Objects taken before Pin committed without the pinned encoding:\n%s", body)
	}
	if err := refs.Update(ctx, "refs/planx/after", pinned, "", "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "logs", "refs", "planx", "after")); err != nil {
		t.Errorf("Refs taken before Pin ignored core.logAllRefUpdates=always: %v", err)
	}
	if got := r.Config().HooksPath(); got != "/pinned/hooks" {
		t.Errorf("HooksPath = %q, want the pinned /pinned/hooks", got)
	}
}
