package wave

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// isolatedAt is a task's run on base two with a fake for the run's turn:
// it writes files in the slot and stages them, as the turn leaves its
// work, then writes late.txt without staging it (what changed after the
// task was judged is not its work), then fails when fail is set.
func isolatedAt(t *testing.T, write map[string]string, fail error) Isolated {
	repo, _, two := repoAt(t)
	pool := NewPool(repo)
	return Isolated{Pool: pool, Base: two, Task: &planparse.Task{ID: "T1"}, Keep: Dir(repo, "run1", "T1"), Drop: []string{"PLAN.md"},
		Turn: func(ctx context.Context, wt *gitops.Repo) error {
			for name, body := range write {
				if err := os.WriteFile(filepath.Join(wt.Root, name), []byte(body), 0o644); err != nil {
					return err
				}
			}
			if err := wt.Index().StageAll(ctx); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(wt.Root, "late.txt"), []byte("late\n"), 0o644); err != nil {
				return err
			}
			return fail
		},
	}
}

func TestIsolatedRecordsWork(t *testing.T) {
	t.Parallel()
	o := isolatedAt(t, map[string]string{"c.txt": "c\n", "PLAN.md": "- [x] T1\n"}, nil)
	turn := o.Turn
	var in string
	o.Turn = func(ctx context.Context, wt *gitops.Repo) error {
		in = wt.Root
		return turn(ctx, wt)
	}
	ran := o.Run(context.Background())
	if ran.Err != nil || ran.Fail != nil {
		t.Fatalf("run: %v %v", ran.Err, ran.Fail)
	}
	if want := []string{"c.txt"}; !reflect.DeepEqual(ran.Files, want) || !ran.Listed {
		t.Errorf("files %v (listed %v), want %v: planx's plan left out", ran.Files, ran.Listed, want)
	}
	root := o.Pool.repo.Root
	if want := filepath.Join(PoolDir(o.Pool.repo), "slot1"); in != want {
		t.Errorf("the turn ran in %s, want the slot %s", in, want)
	}
	if got := gittest.Git(t, root, "rev-parse", string(ran.Work)+"^"); got != string(o.Base) {
		t.Errorf("work's parent %s, want the base %s", got, o.Base)
	}
	if got := gittest.Git(t, root, "show", string(ran.Work)+":c.txt"); got != "c" {
		t.Errorf("work has c.txt %q", got)
	}
	if _, err := gittest.TryGit(root, "", "cat-file", "-e", string(ran.Work)+":late.txt"); err == nil {
		t.Error("a file written after the turn staged its work is in the work")
	}
	if _, err := os.Stat(o.Keep); err == nil {
		t.Error("a task that passed kept its work tree")
	}
	// The slot went back to the pool: the next task takes it again.
	slot, err := o.Pool.Take(context.Background(), o.Base)
	if err != nil || slot != filepath.Join(PoolDir(o.Pool.repo), "slot1") {
		t.Errorf("next slot %s (%v), want slot1 again", slot, err)
	}
}

func TestIsolatedFailureKeepsTheWorkTree(t *testing.T) {
	t.Parallel()
	o := isolatedAt(t, map[string]string{"c.txt": "c\n"}, &outcome.Failure{What: "test failed"})
	ran := o.Run(context.Background())
	if ran.Err != nil || ran.Fail == nil || ran.Fail.What != "test failed" {
		t.Fatalf("run: err %v, fail %v, want the turn's failure", ran.Err, ran.Fail)
	}
	if ran.Work != "" {
		t.Errorf("a failed task recorded work %s", ran.Work)
	}
	if _, err := os.Stat(filepath.Join(o.Keep, "c.txt")); err != nil {
		t.Errorf("the failed task's work tree, with its work, is not kept at %s: %v", o.Keep, err)
	}
}

func TestIsolatedErrorIsNotAFailure(t *testing.T) {
	t.Parallel()
	o := isolatedAt(t, nil, errors.New("disk full"))
	ran := o.Run(context.Background())
	if ran.Err == nil || ran.Fail != nil || ran.Work != "" {
		t.Errorf("run: err %v, fail %v, work %q; want the error and no work", ran.Err, ran.Fail, ran.Work)
	}
}

func TestIsolatedCancelledTakesNoSlot(t *testing.T) {
	t.Parallel()
	o := isolatedAt(t, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := o.Run(ctx)
	if ran.Err == nil || ran.Fail != nil || ran.Listed {
		t.Errorf("cancelled run: err %v, fail %v, listed %v; want an error and nothing run", ran.Err, ran.Fail, ran.Listed)
	}
}
