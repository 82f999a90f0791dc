package execute

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/space"
)

// Steps in a task space over the work tree: each step sees the earlier
// ones' writes; their change reaches the work tree when they end; a
// person's edit made meanwhile of a path the steps did not write stays as
// it is (not in Wrote); of a path both changed, the person's version stays
// in the work tree, the task's is kept under a ref, and the task fails
// naming it.
func TestStepsInASpace(t *testing.T) {
	if err := space.Probe(""); err != nil {
		t.Skipf("no task spaces here: %v", err)
	}
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "both.txt", "before\n")
	gittest.WriteFile(t, dir, "mine.txt", "before\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "base")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	o := options(t, &out)
	o.Dir, o.Repo, o.Start = repo.Root, repo, gitops.SHA(gittest.Git(t, dir, "rev-parse", "HEAD"))
	o.StepSpace = filepath.Join(t.TempDir(), "space")
	sync := t.TempDir()
	// The person edits while step 2 waits for them (a file outside the
	// work tree orders it).
	tk := task(`echo one > first.txt`,
		`cat first.txt > second.txt; echo task > both.txt; touch "$0"; until [ -f "$1" ]; do sleep 0.01; done`)
	tk.Steps[1].Code = strings.ReplaceAll(strings.ReplaceAll(tk.Steps[1].Code, "$0", filepath.Join(sync, "waiting")), "$1", filepath.Join(sync, "go"))
	done := make(chan struct{})
	var end StepsEnd
	go func() {
		defer close(done)
		end, err = Steps(ctx, tk, &execlog.Task{}, o)
	}()
	for !exists(filepath.Join(sync, "waiting")) {
		time.Sleep(10 * time.Millisecond)
		select {
		case <-done:
			t.Fatalf("the steps ended before the person's edit: %v", err)
		default:
		}
	}
	if exists(filepath.Join(dir, "first.txt")) {
		t.Error("a step's write reached the work tree while the steps ran")
	}
	gittest.WriteFile(t, dir, "both.txt", "person\n")
	gittest.WriteFile(t, dir, "mine.txt", "person\n")
	gittest.WriteFile(t, sync, "go", "")
	<-done
	f := outcome.As(err)
	if f == nil || !strings.Contains(f.What, "both.txt changed while t1's steps ran, by them and by a person") {
		t.Fatalf("err = %v", err)
	}
	for p, want := range map[string]string{"first.txt": "one\n", "second.txt": "one\n", "both.txt": "person\n", "mine.txt": "person\n"} {
		if b, _ := os.ReadFile(filepath.Join(dir, p)); string(b) != want {
			t.Errorf("%s = %q, want %q", p, b, want)
		}
	}
	if got := gittest.Git(t, dir, "show", "refs/planx/runs/r1/kept/t1-steps:both.txt"); got != "task" {
		t.Errorf("the task's version kept = %q", got)
	}
	if want := []string{"both.txt", "first.txt", "second.txt"}; !slices.Equal(end.Wrote, want) {
		t.Errorf("Wrote = %q, want %q", end.Wrote, want)
	}
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }
