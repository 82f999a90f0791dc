package wave

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// turns is a fake of the run's side of a wave (Runner): a task's turn
// writes its files in the slot and stages them, as the turn leaves its
// work, then writes late.txt without staging it (what changed after the
// task was judged is not its work), then returns its failure; the gates
// fail once the tree holds the work of breaks. It keeps where each turn
// ran and what each gate run's tree held. The turn of forge writes a record of planx's
// in repo, as an executor that forges them would.
type turns struct {
	write  map[planparse.TaskID]map[string]string
	fail   map[planparse.TaskID]error
	forge  planparse.TaskID
	repo   *gitops.Repo
	breaks planparse.TaskID
	mu     sync.Mutex
	in     map[planparse.TaskID]string
	held   map[planparse.TaskID][]planparse.TaskID
}

func (f *turns) Turn(ctx context.Context, t *Task, wt *gitops.Repo) error {
	f.mu.Lock()
	if f.in == nil {
		f.in = map[planparse.TaskID]string{}
	}
	f.in[t.T.ID] = wt.Root
	f.mu.Unlock()
	if t.T.ID == f.forge {
		base, err := f.repo.Refs().Resolve(ctx, "HEAD")
		if err != nil {
			return err
		}
		if err := records.Of(f.repo).AddGates(records.GateRecord{Tree: base, Gate: "test", Passed: true, At: time.Now()}); err != nil {
			return err
		}
	}
	for name, body := range f.write[t.T.ID] {
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
	return f.fail[t.T.ID]
}

func (f *turns) Gate(ctx context.Context, gt *planparse.Task, dir string, tasks []*planparse.Task) ([]execlog.Gate, *outcome.Failure, error) {
	if _, err := gitops.Open(ctx, dir); err != nil {
		return nil, nil, err
	}
	if f.held == nil {
		f.held = map[planparse.TaskID][]planparse.TaskID{}
	}
	broken := false
	for _, t := range tasks {
		f.held[gt.ID] = append(f.held[gt.ID], t.ID)
		broken = broken || t.ID == f.breaks
	}
	if broken {
		return nil, &outcome.Failure{What: "test failed"}, nil
	}
	return []execlog.Gate{{Name: "test", Passed: true}}, nil, nil
}

// isolatedAt is task T1's run on base two with turns writing write and
// failing with fail.
func isolatedAt(t *testing.T, write map[string]string, fail error) (Isolated, *turns) {
	repo, _, two := repoAt(t)
	pool := NewPool(repo)
	f := &turns{write: map[planparse.TaskID]map[string]string{"T1": write}, fail: map[planparse.TaskID]error{"T1": fail}}
	return Isolated{Pool: pool, Base: two, Task: &Task{T: &planparse.Task{ID: "T1"}, Dir: Dir(repo, "run1", "T1")},
		Drop: []string{"PLAN.md"}, Runner: f}, f
}

func TestIsolatedRecordsWork(t *testing.T) {
	t.Parallel()
	o, f := isolatedAt(t, map[string]string{"c.txt": "c\n", "PLAN.md": "- [x] T1\n"}, nil)
	ran := o.Run(context.Background())
	if ran.Err != nil || ran.Fail != nil {
		t.Fatalf("run: %v %v", ran.Err, ran.Fail)
	}
	if want := []string{"c.txt"}; !reflect.DeepEqual(ran.Files, want) || !ran.Listed {
		t.Errorf("files %v (listed %v), want %v: planx's plan left out", ran.Files, ran.Listed, want)
	}
	root := o.Pool.repo.Root
	if in, want := f.in["T1"], filepath.Join(PoolDir(o.Pool.repo), "slot1"); in != want {
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
	if _, err := os.Stat(o.Task.Dir); err == nil {
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
	o, _ := isolatedAt(t, map[string]string{"c.txt": "c\n"}, &outcome.Failure{What: "test failed"})
	ran := o.Run(context.Background())
	if ran.Err != nil || ran.Fail == nil || ran.Fail.What != "test failed" {
		t.Fatalf("run: err %v, fail %v, want the turn's failure", ran.Err, ran.Fail)
	}
	if ran.Work != "" {
		t.Errorf("a failed task recorded work %s", ran.Work)
	}
	if _, err := os.Stat(filepath.Join(o.Task.Dir, "c.txt")); err != nil {
		t.Errorf("the failed task's work tree, with its work, is not kept at %s: %v", o.Task.Dir, err)
	}
}

func TestIsolatedErrorIsNotAFailure(t *testing.T) {
	t.Parallel()
	o, _ := isolatedAt(t, nil, errors.New("disk full"))
	ran := o.Run(context.Background())
	if ran.Err == nil || ran.Fail != nil || ran.Work != "" {
		t.Errorf("run: err %v, fail %v, work %q; want the error and no work", ran.Err, ran.Fail, ran.Work)
	}
}

func TestIsolatedCancelledTakesNoSlot(t *testing.T) {
	t.Parallel()
	o, _ := isolatedAt(t, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := o.Run(ctx)
	if ran.Err == nil || ran.Fail != nil || ran.Listed {
		t.Errorf("cancelled run: err %v, fail %v, listed %v; want an error and nothing run", ran.Err, ran.Fail, ran.Listed)
	}
}
