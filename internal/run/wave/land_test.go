package wave

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

func TestRestoreLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	none := gitops.SHA(gittest.Commit(t, dir, "no log"))
	gittest.WriteFile(t, dir, "logs/run.md", "log at base\n")
	base := gitops.SHA(gittest.Commit(t, dir, "log"))
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "logs", "run.md")
	gittest.WriteFile(t, dir, "logs/run.md", "written at a stop\n")
	if err := RestoreLog(ctx, repo, base, "logs/run.md"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "log at base\n" {
		t.Errorf("log after restore: %q, %v", b, err)
	}
	if err := RestoreLog(ctx, repo, none, "logs/run.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("a log the base has not is left")
	}
	if err := RestoreLog(ctx, repo, none, "logs/run.md"); err != nil {
		t.Errorf("no log at base and none in the work tree: %v", err)
	}
}
