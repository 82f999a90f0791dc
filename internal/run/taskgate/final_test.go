package taskgate

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// TestFinalFails keeps a run whose final gate fails stopped: the failure
// is the run's reason, an issue of the log and in the state saved, and the
// run's error is a task's failure. Gates of every task are not final ones.
func TestFinalFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	gittest.Commit(t, dir, "one")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	k := newKeeper(repo, &runstate.State{RunID: "run1"})
	k.Out = progress.New(progress.Output{Out: io.Discard})
	k.Gates = []gates.Gate{{Name: "unit", Command: "exit 0"}, {Name: "e2e", Command: "echo broken; exit 3", When: gates.WhenFinal}}

	err = k.Final(ctx)
	if !errors.Is(err, record.ErrTaskFailed) || !strings.Contains(err.Error(), "final gate e2e failed (exit 3)") {
		t.Fatalf("Final = %v, want the final gate's failure", err)
	}
	issues, saved := k.Desk.(*book).issues, k.Desk.(*book).saved
	if len(issues) != 1 || !strings.HasPrefix(issues[0], "final: final gate e2e failed") {
		t.Errorf("issues = %q", issues)
	}
	if !strings.Contains(k.State.Reason, "final gate e2e failed") || saved != 1 {
		t.Errorf("reason %q, saved %d times; want the failure, saved once", k.State.Reason, saved)
	}

	k.Gates = k.Gates[:1]
	if err := k.Final(ctx); err != nil {
		t.Errorf("Final without a final gate = %v", err)
	}
}

func TestCleanGates(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in           string
		kind         planparse.Kind
		clean, links bool
	}{
		{GatesClean, planparse.KindShell, true, false},
		{GatesClean, planparse.KindAgent, true, false},
		{GatesTree, planparse.KindAgent, false, false},
		{"", planparse.KindAgent, true, true},
		{"", planparse.KindShell, false, true},
	} {
		if clean, links := cleanGates(c.in, c.kind); clean != c.clean || links != c.links {
			t.Errorf("cleanGates(%q, %s) = %v, %v; want %v, %v", c.in, c.kind, clean, links, c.clean, c.links)
		}
	}
}

func TestBaselineOn(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	for _, c := range []struct {
		flag               *bool
		accept, configured bool
		want               bool
	}{
		{nil, false, false, false},
		{nil, false, true, true},
		{&no, false, true, false},
		{&yes, false, false, true},
		{&no, true, false, true},
	} {
		if got := BaselineOn(c.flag, c.accept, c.configured); got != c.want {
			t.Errorf("BaselineOn(%v, %v, %v) = %v, want %v", c.flag, c.accept, c.configured, got, c.want)
		}
	}
}

func TestOverridden(t *testing.T) {
	t.Parallel()
	got := Overridden([]gates.Gate{{Name: "test"}}, []planparse.GateDecl{{Name: " lint "}}, []string{"test=true", "lint=true", "other=true"})
	if len(got) != 2 || !got["test"] || !got["lint"] {
		t.Errorf("Overridden = %v, want test and lint", got)
	}
}
