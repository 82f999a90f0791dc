package wave

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// gateOn is an integration gate over a chain of three commits, T1 to T3,
// whose fake gates fail where bad.txt is checked out (T2 adds it).
func gateOn(t *testing.T) (Gate, *[]string) {
	repo, one, two := repoAt(t)
	gittest.WriteFile(t, repo.Root, "bad.txt", "x\n")
	three := gitops.SHA(gittest.Commit(t, repo.Root, "three"))
	var warned []string
	return Gate{Repo: repo, Pool: NewPool(repo), Ref: "refs/planx/runs/run1/wave", Number: 2,
		IDs: []planparse.TaskID{"T1", "T2", "T3"}, Commits: []gitops.SHA{one, two, three},
		Check: func(ctx context.Context, dir string, i int) (*outcome.Failure, error) {
			if _, err := os.Stat(filepath.Join(dir, "bad.txt")); err == nil {
				return &outcome.Failure{What: "test failed"}, nil
			}
			return nil, nil
		},
		Warn: func(id planparse.TaskID, msg string) { warned = append(warned, string(id)+": "+msg) },
	}, &warned
}

func TestGateBisectsToTheBreakingTask(t *testing.T) {
	t.Parallel()
	g, warned := gateOn(t)
	// bad.txt is in the third commit: T3 breaks the combined tree.
	keep, fail, err := g.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if keep != 2 || fail == nil {
		t.Fatalf("keep %d, fail %v; want 2 commits kept and T3 failed", keep, fail)
	}
	want := "integration gate: test failed once T3 is added after T1, T2 (it passed its gates alone; T3 breaks the combined tree)"
	if fail.What != want {
		t.Errorf("failure %q, want %q", fail.What, want)
	}
	if len(*warned) != 1 || !strings.Contains((*warned)[0], "T3: integration gate failed on wave 2's combined tree (test failed); bisecting") {
		t.Errorf("warned %q", *warned)
	}
	if sha, err := g.Repo.Refs().Resolve(context.Background(), g.Ref); err == nil && sha != "" {
		t.Errorf("the wave's ref is left at %s", sha)
	}
}

func TestGatePassesOnTheTip(t *testing.T) {
	t.Parallel()
	g, warned := gateOn(t)
	g.Commits = g.Commits[:2]
	g.IDs = g.IDs[:2]
	var checked []int
	check := g.Check
	g.Check = func(ctx context.Context, dir string, i int) (*outcome.Failure, error) {
		checked = append(checked, i)
		return check(ctx, dir, i)
	}
	keep, fail, err := g.Run(context.Background())
	if err != nil || fail != nil || keep != 2 {
		t.Fatalf("keep %d, fail %v, err %v; want the whole chain kept", keep, fail, err)
	}
	if len(checked) != 1 || checked[0] != 1 || len(*warned) != 0 {
		t.Errorf("checked %v, warned %q; want the tip only, no warning", checked, *warned)
	}
}

func TestGateFirstTaskBreaksOnTheBase(t *testing.T) {
	t.Parallel()
	g, _ := gateOn(t)
	g.Commits, g.IDs = g.Commits[2:], g.IDs[2:]
	keep, fail, err := g.Run(context.Background())
	if err != nil || keep != 0 || fail == nil || !strings.Contains(fail.What, "once T3 is added on the wave's base") {
		t.Fatalf("keep %d, fail %v, err %v", keep, fail, err)
	}
}
