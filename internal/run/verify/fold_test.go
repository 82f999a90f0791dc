package verify

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// An executor's own commits become staged changes of the task; a shell
// task's are a person's and stop the run; a history without planx's last
// commit below HEAD was rewritten.
func TestFold(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, _ := workIn(t, map[string]string{"a.txt": "a\n"})
	gittest.WriteFile(t, w.Root, "b.txt", "b\n")
	head := gitops.SHA(gittest.Commit(t, w.Root, "add b"))

	_, err := Fold(ctx, w.Repo, "main", "T001", w.Base, head, true)
	if !errors.Is(err, gitops.ErrRepoState) || !strings.Contains(err.Error(), "1 commit(s) were made on main while T001 ran") {
		t.Errorf("shell task: %v", err)
	}
	f, err := Fold(ctx, w.Repo, "main", "T001", w.Base, head, false)
	if err != nil || f.Tip != head || len(f.Messages) != 1 || !strings.HasPrefix(f.Messages[0], "add b") || len(f.Authors) != 1 {
		t.Fatalf("fold: %+v, %v", f, err)
	}
	if now := gittest.Git(t, w.Root, "rev-parse", "HEAD"); now != string(w.Base) {
		t.Errorf("HEAD %s after the fold, want %s", now, w.Base)
	}
	if staged := gittest.Git(t, w.Root, "diff", "--cached", "--name-only"); staged != "b.txt" {
		t.Errorf("staged %q, want b.txt", staged)
	}
	if f, err := Fold(ctx, w.Repo, "main", "T001", w.Base, w.Base, false); err != nil || f.Tip != "" {
		t.Errorf("no commits: %+v, %v", f, err)
	}
	gittest.Git(t, w.Root, "commit", "-q", "--amend", "--allow-empty", "-m", "rewritten")
	rewritten := gitops.SHA(gittest.Git(t, w.Root, "rev-parse", "HEAD"))
	_, err = Fold(ctx, w.Repo, "main", "T001", w.Base, rewritten, false)
	failureSays(t, err, "the task rewrote history: "+w.Base.Short()+" is no longer below HEAD")
}
