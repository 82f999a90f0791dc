package wave

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// gateOn is an integration gate over a chain of three commits, T1 to T3,
// whose fake gates (badGates) fail where bad.txt is checked out (T3 adds
// it); what it says goes to the desk returned.
func gateOn(t *testing.T) (Gate, *desk) {
	repo, one, two := repoAt(t)
	gittest.WriteFile(t, repo.Root, "bad.txt", "x\n")
	three := gitops.SHA(gittest.Commit(t, repo.Root, "three"))
	d := &desk{}
	return Gate{Repo: repo, Pool: NewPool(repo), Ref: "refs/planx/runs/run1/wave", Number: 2,
		IDs: []planparse.TaskID{"T1", "T2", "T3"}, Commits: []gitops.SHA{one, two, three}, Desk: d}, d
}

func badGates(ctx context.Context, dir string, i int) (*outcome.Failure, error) {
	if _, err := os.Stat(filepath.Join(dir, "bad.txt")); err == nil {
		return &outcome.Failure{What: "test failed"}, nil
	}
	return nil, nil
}

// desk is a hall.Desk that keeps what it is told, on a fixed clock.
type desk struct {
	said, issues []string
}

func (d *desk) Issue(id planparse.TaskID, msg, _ string) {
	d.issues = append(d.issues, string(id)+": "+msg)
}
func (d *desk) Say(id planparse.TaskID, msg string) { d.said = append(d.said, string(id)+": "+msg) }
func (d *desk) Ask(string) bool                     { return false }
func (d *desk) Save() error                         { return nil }
func (d *desk) Now() time.Time                      { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

func TestGateBisectsToTheBreakingTask(t *testing.T) {
	t.Parallel()
	g, d := gateOn(t)
	// bad.txt is in the third commit: T3 breaks the combined tree.
	keep, fail, err := g.Run(context.Background(), badGates)
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
	if len(d.said) != 1 || !strings.Contains(d.said[0], "T3: integration gate failed on wave 2's combined tree (test failed); bisecting") || len(d.issues) != 0 {
		t.Errorf("said %q, recorded %q; want the bisection said, nothing recorded", d.said, d.issues)
	}
	if sha, err := g.Repo.Refs().Resolve(context.Background(), g.Ref); err == nil && sha != "" {
		t.Errorf("the wave's ref is left at %s", sha)
	}
}

func TestGatePassesOnTheTip(t *testing.T) {
	t.Parallel()
	g, d := gateOn(t)
	g.Commits = g.Commits[:2]
	g.IDs = g.IDs[:2]
	var checked []int
	keep, fail, err := g.Run(context.Background(), func(ctx context.Context, dir string, i int) (*outcome.Failure, error) {
		checked = append(checked, i)
		return badGates(ctx, dir, i)
	})
	if err != nil || fail != nil || keep != 2 {
		t.Fatalf("keep %d, fail %v, err %v; want the whole chain kept", keep, fail, err)
	}
	if len(checked) != 1 || checked[0] != 1 || len(d.said) != 0 {
		t.Errorf("checked %v, said %q; want the tip only, no warning", checked, d.said)
	}
}

func TestGateFirstTaskBreaksOnTheBase(t *testing.T) {
	t.Parallel()
	g, _ := gateOn(t)
	g.Commits, g.IDs = g.Commits[2:], g.IDs[2:]
	keep, fail, err := g.Run(context.Background(), badGates)
	if err != nil || keep != 0 || fail == nil || !strings.Contains(fail.What, "once T3 is added on the wave's base") {
		t.Fatalf("keep %d, fail %v, err %v", keep, fail, err)
	}
}
