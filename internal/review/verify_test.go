package review

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

const run1 = "20260102-030405-eeeeee"

// kinds lists the findings' severity:kind, in order.
func kinds(r Report) string {
	var s []string
	for _, f := range r.Findings {
		s = append(s, f.Severity+":"+f.Kind)
	}
	return strings.Join(s, " ")
}

func TestVerifyCleanRun(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.fullRun(run1)
	rep, err := Verify(context.Background(), h.repo, Options{})
	if err != nil || !rep.OK || len(rep.Findings) != 0 {
		t.Fatalf("clean run: %v; findings %s", err, kinds(rep))
	}
	if len(rep.Runs) != 1 || len(rep.Runs[0].Tasks) != 3 || len(rep.Runs[0].Missing) != 0 {
		t.Errorf("report = %+v", rep.Runs)
	}
	for _, tr := range rep.Runs[0].Tasks {
		if !tr.OK || len(tr.Gates) != 1 {
			t.Errorf("task report %+v", tr)
		}
	}
}

func TestVerifyDrift(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.fullRun(run1)
	plan := gittest.Git(t, h.dir, "show", "HEAD:"+planPath)
	gittest.WriteFile(t, h.dir, planPath, strings.Replace(plan, "echo b > b.txt", "echo B > b.txt", 1)+"\n")
	gittest.Commit(t, h.dir, "edit T002 after the fact")

	rep, err := Verify(context.Background(), h.repo, Options{})
	if !errors.Is(err, record.ErrDrift) || errors.Is(err, record.ErrTaskFailed) || rep.OK {
		t.Fatalf("err = %v, findings %s", err, kinds(rep))
	}
	if kinds(rep) != "error:drift" {
		t.Errorf("findings %s", kinds(rep))
	}
	d := rep.Findings[0].Diff
	if rep.Findings[0].Task != "T002" || !strings.Contains(d, "\n-  echo b > b.txt\n") || !strings.Contains(d, "\n+  echo B > b.txt\n") ||
		!strings.Contains(d, " - [x] T002 Add b\n") {
		t.Errorf("drift finding %+v\ndiff:\n%s", rep.Findings[0], d)
	}
}

func TestVerifyFailedGateAndMalformed(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.fullRun(run1)
	plan := gittest.Git(t, h.dir, "show", "HEAD:"+planPath)
	gittest.WriteFile(t, h.dir, planPath, plan+"\n- [ ] T004 Add d\n")
	gittest.Commit(t, h.dir, "add T004")
	h.task(run1, "T004", "d.txt", "Planx-Gate: check=fail 10ms")

	rep, err := Verify(context.Background(), h.repo, Options{})
	if !errors.Is(err, record.ErrTaskFailed) || errors.Is(err, record.ErrDrift) {
		t.Fatalf("err = %v, findings %s", err, kinds(rep))
	}
	if kinds(rep) != "error:gate-failed" || !strings.Contains(err.Error(), "gate check recorded as failed") {
		t.Errorf("findings %s; err %v", kinds(rep), err)
	}
	if tr := rep.Runs[0].Tasks; len(tr) != 4 || tr[3].OK || !tr[2].OK {
		t.Errorf("task reports %+v", tr)
	}
}

func TestVerifyUnprovenCommits(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.rollback(run1, testPlan)
	// T002 before its dependency T001; T001 changes only the plan and log;
	// T003 records no gate although the plan configures one.
	h.task(run1, "T002", "b.txt")
	h.task(run1, "T001", "")
	h.task(run1, "T003", "c.txt", "Planx-Future: x")

	rep, err := Verify(context.Background(), h.repo, Options{})
	if !errors.Is(err, ErrUnverified) || !errors.Is(err, record.ErrTaskFailed) {
		t.Fatalf("err = %v", err)
	}
	want := "error:order error:empty error:gate-missing"
	if kinds(rep) != want {
		t.Errorf("findings %s, want %s", kinds(rep), want)
		for _, f := range rep.Findings {
			t.Log(f.Message)
		}
	}
}

func TestVerifyMissingAndRange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	rb := h.rollback(run1, testPlan)
	t1 := h.task(run1, "T001", "a.txt")
	h.task(run1, "T002", "b.txt")

	rep, err := Verify(ctx, h.repo, Options{})
	if err != nil || kinds(rep) != "warning:missing" || strings.Join(rep.Runs[0].Missing, ",") != "T003" {
		t.Fatalf("partial run: %v, %s, %+v", err, kinds(rep), rep.Runs)
	}

	// A range holding only T002 checks only T002 but still sees T001 as
	// committed first (the walk reads back to the rollback commit).
	rep, err = Verify(ctx, h.repo, Options{Range: string(t1) + "..HEAD"})
	if err != nil || len(rep.Runs) != 1 || len(rep.Runs[0].Tasks) != 1 || rep.Runs[0].Tasks[0].ID != "T002" || rep.Runs[0].Rollback != rb {
		t.Fatalf("range: %v %+v", err, rep.Runs)
	}
	// Nothing of planx's in the range: nothing to check, no error.
	gittest.Commit(t, h.dir, "human")
	if rep, err := Verify(ctx, h.repo, Options{Range: "HEAD~1..HEAD"}); err != nil || len(rep.Runs) != 0 {
		t.Errorf("range without planx commits: %v %+v", err, rep)
	}
	for _, bad := range []string{"HEAD", "..HEAD", "HEAD...HEAD~1", "nope..HEAD"} {
		if _, err := Verify(ctx, h.repo, Options{Range: bad}); !errors.Is(err, ErrRange) {
			t.Errorf("range %q: %v, want ErrRange", bad, err)
		}
	}
}

func TestVerifyPlanChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	h.fullRun(run1)
	plan := gittest.Git(t, h.dir, "show", "HEAD:"+planPath)

	// T003 removed from the plan: drift.
	cut := plan[:strings.Index(plan, "- [x] T003")]
	gittest.WriteFile(t, h.dir, planPath, cut)
	gittest.Commit(t, h.dir, "drop T003")
	rep, err := Verify(ctx, h.repo, Options{})
	if !errors.Is(err, record.ErrDrift) || kinds(rep) != "error:not-in-plan" {
		t.Errorf("task removed: %v %s", err, kinds(rep))
	}

	// A plan that no longer validates wins over everything else.
	gittest.WriteFile(t, h.dir, planPath, cut+"- [ ] T009 Z\n  Depends on: T077\n")
	gittest.Commit(t, h.dir, "break the plan")
	rep, err = Verify(ctx, h.repo, Options{})
	if !errors.Is(err, planparse.ErrInvalid) || !strings.HasPrefix(kinds(rep), "error:plan-invalid") {
		t.Errorf("invalid plan: %v %s", err, kinds(rep))
	}
}

func TestVerifyRerunGates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	plan := strings.Replace(testPlan, `command: "true"`, `command: "test -f a.txt && test ! -f dirty.txt"`, 1)
	h.rollback(run1, plan)
	h.task(run1, "T001", "a.txt")
	// The user's uncommitted file would make the gate fail; the re-run must
	// not see it.
	gittest.WriteFile(t, h.dir, "dirty.txt", "x")
	var live strings.Builder
	rep, err := Verify(ctx, h.repo, Options{Rerun: RerunTip, TrustBranchConfig: true, NoCache: true, GateOutput: &live})
	if err != nil || len(rep.Gates) != 1 || !rep.Gates[0].Passed {
		t.Fatalf("rerun: %v %+v %s", err, rep.Gates, kinds(rep))
	}
	gittest.WriteFile(t, h.dir, ".planx.yaml", "gates:\n  - name: lint\n    command: echo lint says no; exit 4\n")
	gittest.Git(t, h.dir, "add", ".planx.yaml")
	gittest.Git(t, h.dir, "commit", "-q", "-m", "add a failing gate")
	// The gates come from the trusted revision (here HEAD), not from the
	// task commit, which has no .planx.yaml.
	rep, err = Verify(ctx, h.repo, Options{Rerun: RerunTip, Base: "HEAD", NoCache: true, GateOutput: &live})
	if !errors.Is(err, record.ErrTaskFailed) || len(rep.Gates) != 2 || rep.Gates[0].Name != "lint" || rep.Gates[0].ExitCode != 4 {
		t.Fatalf("failing rerun: %v %+v", err, rep.Gates)
	}
	if !strings.Contains(live.String(), "lint says no") {
		t.Errorf("live output %q", live.String())
	}
	if wt := gittest.Git(t, h.dir, "worktree", "list"); strings.Count(wt, "\n") != 0 {
		t.Errorf("verification worktree left behind:\n%s", wt)
	}
	if st := gittest.Git(t, h.dir, "status", "--porcelain"); st != "?? dirty.txt" {
		t.Errorf("user's tree changed: %q", st)
	}
}
