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
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/record"
)

func findingOf(rep Report, kind string) *Finding {
	for i := range rep.Findings {
		if rep.Findings[i].Kind == kind {
			return &rep.Findings[i]
		}
	}
	return nil
}

// An amended task commit is not the one planx made: unverified, with both
// SHAs; its neighbours stay verified.
func TestVerifyAmendedCommitUnverified(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.fullRun(run1)
	made := gittest.Git(t, h.dir, "rev-parse", "HEAD")
	gittest.WriteFile(t, h.dir, "c.txt", "changed by hand\n")
	gittest.Git(t, h.dir, "commit", "-q", "-a", "--amend", "--no-edit")
	amended := gittest.Git(t, h.dir, "rev-parse", "HEAD")
	rep, err := Verify(context.Background(), h.repo, Options{})
	if !errors.Is(err, ErrUnverified) || !errors.Is(err, record.ErrTaskFailed) {
		t.Fatalf("err %v, findings %s", err, kinds(rep))
	}
	f := findingOf(rep, KindUnverified)
	want := "T003: commit " + gitops.SHA(amended).Short() + " is not the commit planx made (" + gitops.SHA(made).Short() + "); its tree was never gated"
	if f == nil || f.Message != want {
		t.Fatalf("finding %+v, want %q", f, want)
	}
	ts := rep.Runs[0].Tasks
	if ts[0].Evidence != EvidenceMade || !ts[0].OK || ts[2].Evidence != EvidenceUnverified || ts[2].OK {
		t.Errorf("tasks %+v", ts)
	}
}

// A clone that did not make the run warns per commit, or fails with Strict.
func TestVerifyElsewhere(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.elsewhere = true
	h.fullRun(run1)
	rep, err := Verify(context.Background(), h.repo, Options{})
	if err != nil || kinds(rep) != "warning:not-reverified warning:not-reverified warning:not-reverified" {
		t.Fatalf("err %v, findings %s", err, kinds(rep))
	}
	if !strings.Contains(rep.Findings[0].Message, "gated locally, not re-verified here") {
		t.Errorf("message %q", rep.Findings[0].Message)
	}
	rep, err = Verify(context.Background(), h.repo, Options{Strict: true})
	if !errors.Is(err, ErrUnverified) || kinds(rep) != "error:not-reverified error:not-reverified error:not-reverified" {
		t.Fatalf("strict: err %v, findings %s", err, kinds(rep))
	}
}

// A gate record for the commit's tree vouches for a commit planx did not
// make (a rebase re-gated by verify --rerun-gates).
func TestVerifyTreeRecord(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.elsewhere = true
	h.fullRun(run1)
	tree := gitops.SHA(gittest.Git(t, h.dir, "rev-parse", "HEAD^{tree}"))
	if err := records.Of(h.repo).AddGates(records.GateRecord{Tree: tree, Gate: "check", Passed: true, By: "verify"}); err != nil {
		t.Fatal(err)
	}
	rep, _ := Verify(context.Background(), h.repo, Options{})
	if ts := rep.Runs[0].Tasks; ts[2].Evidence != EvidenceRecorded || ts[1].Evidence != EvidenceElsewhere {
		t.Errorf("tasks %+v", ts)
	}
}

// A note written for another commit, or naming none, is rejected.
func TestVerifyForgedNote(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.fullRun(run1)
	head := gittest.Git(t, h.dir, "rev-parse", "HEAD")
	prev := gittest.Git(t, h.dir, "rev-parse", "HEAD~1")
	tree := gittest.Git(t, h.dir, "rev-parse", "HEAD^{tree}")
	good := "planx gate output of T003\nCommit: " + head + "\nTree: " + tree + "\n\n== gate check: pass (exit 0, 12ms)\n"
	gittest.Git(t, h.dir, "notes", "--ref=planx", "add", "-m", good, "HEAD")
	if rep, err := Verify(context.Background(), h.repo, Options{}); err != nil {
		t.Fatalf("planx's note: %v %s", err, kinds(rep))
	}
	for _, forged := range []string{
		strings.Replace(good, head, prev, 1),                                         // moved from another commit
		"planx gate output of T003\n\n== gate check: pass (exit 0, 1ms)\nall good\n", // names no commit
		strings.Replace(good, "check: pass", "check: fail", 1),                       // contradicts the trailers
	} {
		gittest.Git(t, h.dir, "notes", "--ref=planx", "add", "-f", "-m", forged, "HEAD")
		rep, err := Verify(context.Background(), h.repo, Options{})
		if f := findingOf(rep, KindNote); !errors.Is(err, ErrUnverified) || f == nil || f.Task != "T003" {
			t.Errorf("forged note %q: err %v, findings %s", forged, err, kinds(rep))
		}
	}
}

// Warnings and overridden gates in trailers are reported.
func TestVerifyWarningsAndOverride(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	h.rollback(run1, testPlan)
	h.task(run1, "T001", "a.txt", "Planx-Gate: check=pass 3ms overridden", "Planx-Warning: outside-declared=x.txt,y.txt")
	rep, err := Verify(context.Background(), h.repo, Options{Plan: planPath})
	if err != nil || findingOf(rep, KindOverridden) == nil || findingOf(rep, KindTaskWarning) == nil {
		t.Fatalf("err %v, findings %s", err, kinds(rep))
	}
	if !strings.Contains(findingOf(rep, KindTaskWarning).Message, "outside-declared=x.txt,y.txt") {
		t.Errorf("warning %q", findingOf(rep, KindTaskWarning).Message)
	}
	if _, err := Verify(context.Background(), h.repo, Options{Strict: true}); !errors.Is(err, ErrUnverified) {
		t.Errorf("strict override: %v", err)
	}
}

// --rerun-gates re-runs a task's acceptance commands with its gates, from
// the trusted plan, records both by tree, and a second verify runs nothing.
func TestRerunAcceptanceAndRecords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	h.elsewhere = true
	counter := filepath.Join(t.TempDir(), "runs")
	plan := strings.Replace(testPlan, "- [ ] T001 Add a\n", "- [ ] T001 Add a\n  Acceptance: `echo acc >> "+counter+"; test -f a.txt`\n", 1)
	h.rollback(run1, plan)
	h.task(run1, "T001", "a.txt", "Planx-Gate: acceptance-1=pass 3ms", "Planx-Gate: check=pass 3ms")
	rep, err := Verify(ctx, h.repo, Options{Rerun: RerunUnverified, Base: "HEAD"})
	if err != nil || len(rep.Gates) != 2 || rep.Gates[0].Name != "acceptance-1" || rep.Gates[0].Cached || rep.Runs[0].Tasks[0].Evidence != EvidenceRerun {
		t.Fatalf("rerun: %v %+v %s", err, rep.Gates, kinds(rep))
	}
	rep, err = Verify(ctx, h.repo, Options{Strict: true})
	if err != nil || rep.Runs[0].Tasks[0].Evidence != EvidenceRecorded {
		t.Fatalf("after rerun: %v %+v %s", err, rep.Runs, kinds(rep))
	}
	rep, err = Verify(ctx, h.repo, Options{Rerun: RerunAll, Base: "HEAD"})
	if err != nil || len(rep.Gates) != 2 || !rep.Gates[0].Cached || !rep.Gates[1].Cached {
		t.Fatalf("cached rerun: %v %+v", err, rep.Gates)
	}
	if b, err := os.ReadFile(counter); err != nil || strings.Count(string(b), "acc") != 1 {
		t.Errorf("acceptance command ran %q times, want once (%v)", b, err)
	}
}
