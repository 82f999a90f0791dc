package review

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

func TestRunsNewestFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	rbA := h.fullRun("20260102-030405-aaaaaa")
	gittest.Commit(t, h.dir, "a human commit between runs")
	rbB := h.rollback("20260102-030405-bbbbbb", testPlan)
	h.task("20260102-030405-bbbbbb", "T001", "a2.txt", "Planx-Gate: check=pass 7ms", "Planx-Gate: lint=fail 30ms",
		"Planx-Skipped: T002, T003", "Planx-Future: ignored")

	runs, err := Runs(ctx, h.repo, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2: %+v", len(runs), runs)
	}
	b, a := runs[0], runs[1]
	if b.ID != "20260102-030405-bbbbbb" || b.Rollback != rbB || !b.Complete || b.Plan != planPath {
		t.Errorf("newest run = %+v", b)
	}
	if a.ID != "20260102-030405-aaaaaa" || a.Rollback != rbA || len(a.Tasks) != 3 {
		t.Fatalf("older run = %+v", a)
	}
	for i, want := range []string{"T001", "T002", "T003"} {
		tc := a.Tasks[i]
		if tc.ID != want || tc.Executor != "shell" || !strings.HasPrefix(tc.TaskHash, "sha256:") || tc.Status() != "done" {
			t.Errorf("task %d = %+v", i, tc)
		}
		if len(tc.Gates) != 1 || tc.Gates[0] != (Gate{Name: "check", Passed: true, DurationMS: 12}) {
			t.Errorf("%s gates = %+v", want, tc.Gates)
		}
		// Fixed test dates: every commit has the same second.
		if tc.DurationMS == nil || *tc.DurationMS != 0 {
			t.Errorf("%s duration = %v", want, tc.DurationMS)
		}
	}
	tb := b.Tasks[0]
	if tb.Status() != "gate-failed" || len(tb.Gates) != 2 || tb.Gates[1].Passed || tb.Gates[1].DurationMS != 30 {
		t.Errorf("task with a failed gate = %+v (status %s)", tb, tb.Status())
	}
	if strings.Join(b.Skipped, ",") != "T002,T003" {
		t.Errorf("skipped = %q", b.Skipped)
	}
	if len(tb.Problems) != 0 {
		t.Errorf("unknown Planx-* trailer made the commit malformed: %q", tb.Problems)
	}

	if recent, err := Recent(ctx, h.repo, "", "", 1); err != nil || len(recent) != 1 || recent[0].ID != b.ID {
		t.Errorf("Recent(1) = %+v, %v", recent, err)
	}
	if recent, err := Recent(ctx, h.repo, "", "", 5); err != nil || len(recent) != 2 {
		t.Errorf("Recent(5) = %d runs, %v", len(recent), err)
	}
	only, err := Runs(ctx, h.repo, "", "other/plan.md")
	if err != nil || len(only) != 0 {
		t.Errorf("plan filter: %d runs, %v", len(only), err)
	}
	latest, err := Latest(ctx, h.repo, rbB, "")
	if err != nil || latest == nil || latest.ID != "20260102-030405-bbbbbb" || len(latest.Tasks) != 0 {
		t.Errorf("Latest from the rollback commit = %+v, %v", latest, err)
	}
}

// TestLatestReadsOnlyItsRun proves the walk stops at the rollback commit: an
// old commit whose object is gone breaks a full walk but not Latest.
func TestLatestReadsOnlyItsRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	old := gittest.Commit(t, h.dir, "old")
	for i := 0; i < 12; i++ {
		gittest.Commit(t, h.dir, "filler")
	}
	h.fullRun("20260102-030405-cccccc")
	obj := filepath.Join(h.dir, ".git", "objects", old[:2], old[2:])
	if err := os.Remove(obj); err != nil {
		t.Fatal(err)
	}
	run, err := Latest(ctx, h.repo, "", "")
	if err != nil || run == nil || len(run.Tasks) != 3 {
		t.Fatalf("Latest = %+v, %v", run, err)
	}
	if _, err := Runs(ctx, h.repo, "", ""); err == nil {
		t.Error("a full walk over a missing commit succeeded: the test does not prove anything")
	}
}

func TestShallowCloneCutsRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	h.fullRun("20260102-030405-dddddd")
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, h.dir, "clone", "-q", "--depth=2", "file://"+h.dir, clone)
	repo, err := gitops.Open(ctx, clone)
	if err != nil {
		t.Fatal(err)
	}
	run, err := Latest(ctx, repo, "", "")
	var se *ShallowError
	if !errors.As(err, &se) || !errors.Is(err, ErrShallow) || !errors.Is(err, gitops.ErrRepoState) {
		t.Fatalf("Latest in a shallow clone: %v", err)
	}
	if se.Run != "20260102-030405-dddddd" || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Errorf("shallow error: %v", err)
	}
	if run == nil || len(run.Tasks) != 2 || run.Complete {
		t.Errorf("partial run = %+v", run)
	}
	// show T003 finds it in what the clone has; show T001, cut off, says to fetch more (exit 5, not 8).
	if f, err := FindTask(ctx, repo, "", TaskQuery{ID: "T003"}); f.Task == nil || !errors.Is(err, ErrShallow) {
		t.Errorf("FindTask T003 in a shallow clone: %+v %v", f, err)
	}
	if _, err := FindTask(ctx, repo, "", TaskQuery{ID: "T001"}); !errors.Is(err, ErrShallow) || errors.Is(err, ErrNotFound) {
		t.Errorf("FindTask T001 cut off by a shallow clone: %v", err)
	}
	rep, err := Verify(ctx, repo, Options{})
	if !errors.Is(err, ErrShallow) || rep.OK || len(rep.Findings) == 0 || rep.Findings[0].Kind != KindShallow {
		t.Errorf("Verify in a shallow clone: %v %+v", err, rep.Findings)
	}
	// Deepening fixes it.
	gittest.Git(t, clone, "fetch", "-q", "--unshallow")
	if rep, err := Verify(ctx, repo, Options{}); err != nil || !rep.OK {
		t.Errorf("Verify after --unshallow: %v %+v", err, rep.Findings)
	}
}

func TestClassifyMalformed(t *testing.T) {
	t.Parallel()
	c := gitops.Commit{SHA: "abc", Subject: "wrong subject",
		Message: "wrong subject\n\nPlanx-Run: r1\nplanx-task: T1\nPlanx-Gate: test=ok\nPlanx-Gate: vet=pass 3ms\n"}
	p := classify(c)
	if p.kind != kindTask || p.task.ID != "T1" {
		t.Fatalf("classify = %+v", p)
	}
	want := []string{`malformed Planx-Task "T1"`, "no Refs trailer", "no Planx-Task-Hash trailer", "no Planx-Executor trailer",
		`subject "wrong subject" does not start with "T1: "`, `malformed Planx-Gate "test=ok"`}
	got := strings.Join(p.task.Problems, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("problems lack %q:\n%s", w, got)
		}
	}
	if len(p.task.Gates) != 1 || p.task.Gates[0].Name != "vet" {
		t.Errorf("gates = %+v", p.task.Gates)
	}
	if classify(gitops.Commit{Subject: "x"}).kind != kindOther {
		t.Error("a commit without trailers is planx's")
	}
}

// Indexed reads back to the oldest rollback commit refs/planx/runs records
// and no further: history older than every recorded run is never read.
func TestIndexedStopsAtOldestRecordedRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	old := gittest.Commit(t, h.dir, "years of history before planx")
	// History is read in pages (8, 32, 128... commits): enough commits
	// that the page holding the last recorded run ends before old.
	for i := 0; i < 60; i++ {
		gittest.Commit(t, h.dir, "filler")
	}
	h.fullRun("20260101-000000-aaaaaa") // made in another clone: no ref here
	gittest.Commit(t, h.dir, "a human commit")
	rbB := h.fullRun("20260102-000000-bbbbbb")
	gittest.Commit(t, h.dir, "another human commit")
	rbD := h.fullRun("20260104-000000-dddddd")
	ref := func(name string, sha gitops.SHA) { gittest.Git(t, h.dir, "update-ref", name, string(sha)) }
	ref("refs/planx/runs/20260102-000000-bbbbbb/base", rbB)
	ref("refs/planx/runs/20260104-000000-dddddd/base", rbD)
	// An aborted run: its base is off the branch, so it must not keep the
	// walk going to the root.
	off := gitops.SHA(strings.TrimSpace(gittest.GitInput(t, h.dir, "aborted\n", "commit-tree", "HEAD^{tree}", "-p", "HEAD")))
	ref("refs/planx/runs/20260103-000000-cccccc/base", off)
	ref("refs/planx/runs/20260103-000000-cccccc/head", off)
	obj := filepath.Join(h.dir, ".git", "objects", old[:2], old[2:])
	if err := os.Remove(obj); err != nil {
		t.Fatal(err)
	}

	runs, stopped, err := Indexed(ctx, h.repo, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Rollback != rbD || runs[1].Rollback != rbB || stopped != rbB {
		t.Fatalf("Indexed = %d runs, stopped at %s; want the runs at %s and %s, stopped at the latter", len(runs), stopped, rbD.Short(), rbB.Short())
	}
	// With a plan filter the walk still ends at the oldest recorded run.
	if runs, stopped, err := Indexed(ctx, h.repo, "", "other/plan.md"); err != nil || len(runs) != 0 || stopped != rbB {
		t.Fatalf("filtered: %d runs, stopped at %s, %v", len(runs), stopped, err)
	}
	if _, err := Runs(ctx, h.repo, "", ""); err == nil {
		t.Fatal("a full walk over a missing commit succeeded: the test does not prove anything")
	}
	// Without B's ref the walk ends at D, the oldest run still recorded.
	gittest.Git(t, h.dir, "update-ref", "-d", "refs/planx/runs/20260102-000000-bbbbbb/base")
	if runs, stopped, err := Indexed(ctx, h.repo, "", ""); err != nil || len(runs) != 1 || stopped != rbD {
		t.Fatalf("one recorded run: %d runs, stopped at %s, %v", len(runs), stopped, err)
	}
	// Without any (a fresh clone that did not fetch refs/planx/*), or with a
	// recorded run that is not on the history, everything is read.
	gittest.Git(t, h.dir, "update-ref", "refs/planx/runs/20260105-000000-eeeeee/base", string(off))
	if _, stopped, err := Indexed(ctx, h.repo, "", ""); err == nil || stopped != "" {
		t.Fatalf("a recorded run off the history must mean a full read: stopped %s, %v", stopped, err)
	}
	for _, id := range []string{"20260103-000000-cccccc/base", "20260103-000000-cccccc/head", "20260104-000000-dddddd/base", "20260105-000000-eeeeee/base"} {
		gittest.Git(t, h.dir, "update-ref", "-d", "refs/planx/runs/"+id)
	}
	if _, stopped, err := Indexed(ctx, h.repo, "", ""); err == nil || stopped != "" {
		t.Fatalf("no recorded run must mean a full read: stopped %s, %v", stopped, err)
	}
}
