package wave

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
)

// isolatedAt is a task's run on base two with fakes for the run's seams: its
// steps write files, its gates and declared check do what the test says.
func isolatedAt(t *testing.T, write map[string]string) Isolated {
	repo, _, two := repoAt(t)
	pool := NewPool(repo)
	return Isolated{Pool: pool, Base: two, Task: &planparse.Task{ID: "T1"}, Keep: Dir(repo, "run1", "T1"), Drop: []string{"PLAN.md"},
		Steps: func(ctx context.Context, dir string) error {
			for name, body := range write {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					return err
				}
			}
			return nil
		},
		Gates:    func(ctx context.Context, dir string) error { return nil },
		Declared: func(root string, files []string) (string, error) { return "", nil },
	}
}

func TestIsolatedRecordsWork(t *testing.T) {
	o := isolatedAt(t, map[string]string{"c.txt": "c\n", "PLAN.md": "- [x] T1\n"})
	var declared []string
	o.Declared = func(root string, files []string) (string, error) {
		declared = files
		return "outside-declared=c.txt", nil
	}
	ran := o.Run(context.Background())
	if ran.Err != nil || ran.Fail != nil {
		t.Fatalf("run: %v %v", ran.Err, ran.Fail)
	}
	if want := []string{"c.txt"}; !reflect.DeepEqual(ran.Files, want) || !reflect.DeepEqual(declared, want) || !ran.Listed {
		t.Errorf("files %v, declared %v (listed %v), want %v: planx's plan left out", ran.Files, declared, ran.Listed, want)
	}
	if want := []string{"outside-declared=c.txt"}; !reflect.DeepEqual(ran.Warnings, want) {
		t.Errorf("warnings %v, want %v", ran.Warnings, want)
	}
	root := o.Pool.repo.Root
	if got := gittest.Git(t, root, "rev-parse", string(ran.Work)+"^"); got != string(o.Base) {
		t.Errorf("work's parent %s, want the base %s", got, o.Base)
	}
	if got := gittest.Git(t, root, "show", string(ran.Work)+":c.txt"); got != "c" {
		t.Errorf("work has c.txt %q", got)
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

func TestIsolatedFailuresKeepTheWorkTree(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		write      map[string]string
		gates      func(ctx context.Context, dir string) error
	}{
		{name: "no changes", want: "no changes", write: map[string]string{"PLAN.md": "x\n"}},
		{name: "gate failed", want: "test failed", write: map[string]string{"c.txt": "c\n"},
			gates: func(ctx context.Context, dir string) error { return &outcome.Failure{What: "test failed"} }},
		{name: "gate changed the work", want: "files changed while the gates ran: d.txt", write: map[string]string{"c.txt": "c\n"},
			gates: func(ctx context.Context, dir string) error {
				return os.WriteFile(filepath.Join(dir, "d.txt"), []byte("d\n"), 0o644)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := isolatedAt(t, tc.write)
			if tc.gates != nil {
				o.Gates = tc.gates
			}
			ran := o.Run(context.Background())
			if ran.Err != nil || ran.Fail == nil || !strings.Contains(ran.Fail.What, tc.want) {
				t.Fatalf("run: err %v, fail %v, want a failure with %q", ran.Err, ran.Fail, tc.want)
			}
			if ran.Work != "" {
				t.Errorf("a failed task recorded work %s", ran.Work)
			}
			if _, err := os.Stat(o.Keep); err != nil {
				t.Errorf("the failed task's work tree is not kept at %s: %v", o.Keep, err)
			}
		})
	}
}

func TestIsolatedCancelledTakesNoSlot(t *testing.T) {
	o := isolatedAt(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := o.Run(ctx)
	if ran.Err == nil || ran.Fail != nil || ran.Listed {
		t.Errorf("cancelled run: err %v, fail %v, listed %v; want an error and nothing run", ran.Err, ran.Fail, ran.Listed)
	}
}
