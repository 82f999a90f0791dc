package approval

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/planparse"
)

func TestGate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, _ := openRepo(t)
	parse := func(src string) *planparse.Plan {
		p, err := planparse.Parse("plan.md", []byte(src), planparse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	subj := func(p *planparse.Plan) Subject { return Subject{Src: p.Source, Plan: p} }
	assess := func(ts []*planparse.Task) []risk.Assessment {
		var out []risk.Assessment
		for _, t := range ts {
			out = append(out, risk.Assess(t, "shell", nil))
		}
		return out
	}
	low := parse(planV1)
	high := parse(strings.Replace(planV1, "echo hi > hi.txt", "git push origin main", 1))
	var out strings.Builder
	asked := 0
	answer := func(yes bool) func(string) bool {
		return func(q string) bool {
			asked++
			if !strings.Contains(q, "Approve plan.md with HIGH steps and run it? [y/N]") {
				t.Errorf("question %q", q)
			}
			return yes
		}
	}

	// Unapproved LOW plan: runs, nobody asked; with Require: refused.
	if err := Gate(ctx, r, "plan.md", subj(low), assess(low.Tasks), risk.HIGH, GateOptions{Ask: answer(true), Out: &out}); err != nil || asked != 0 {
		t.Fatalf("LOW plan: %v, asked %d", err, asked)
	}
	if err := Gate(ctx, r, "plan.md", subj(low), assess(low.Tasks), risk.HIGH, GateOptions{Require: true}); !errors.Is(err, ErrNotApproved) {
		t.Fatalf("Require, unapproved: %v", err)
	}
	// Unapproved HIGH plan without a terminal: refused unless --yes.
	out.Reset()
	if err := Gate(ctx, r, "plan.md", subj(high), assess(high.Tasks), risk.HIGH, GateOptions{Out: &out}); !errors.Is(err, ErrNotApproved) ||
		!strings.Contains(err.Error(), "confirm with --yes") || !strings.Contains(out.String(), "T001  HIGH") {
		t.Fatalf("HIGH without Ask: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := Gate(ctx, r, "plan.md", subj(high), assess(high.Tasks), risk.HIGH, GateOptions{Yes: true, Out: &out}); err != nil ||
		!strings.Contains(out.String(), "--yes given") {
		t.Fatalf("HIGH with --yes: %v\n%s", err, out.String())
	}
	if rec, _ := Load(ctx, r, "plan.md"); rec != nil {
		t.Fatal("--yes recorded an approval; it only consents to this run")
	}
	// On a terminal: no is ErrNotApproved and records nothing; yes approves.
	if err := Gate(ctx, r, "plan.md", subj(high), assess(high.Tasks), risk.HIGH, GateOptions{Ask: answer(false)}); !errors.Is(err, ErrNotApproved) || asked != 1 {
		t.Fatalf("declined: %v", err)
	}
	if rec, _ := Load(ctx, r, "plan.md"); rec != nil {
		t.Fatal("a declined gate recorded an approval")
	}
	// The level is that of the tasks about to run: none left to run is LOW.
	if err := Gate(ctx, r, "plan.md", subj(high), assess(nil), risk.HIGH, GateOptions{Ask: answer(true), Out: &out}); err != nil || asked != 1 {
		t.Fatalf("nothing to run: %v, asked %d", err, asked)
	}
	if err := Gate(ctx, r, "plan.md", subj(high), assess(high.Tasks), risk.HIGH, GateOptions{Ask: answer(true), Out: &out}); err != nil {
		t.Fatal(err)
	}
	if rec, _ := Load(ctx, r, "plan.md"); rec == nil || rec.Level != risk.HIGH {
		t.Fatalf("approval recorded by the gate: %+v", rec)
	}
	// Approved as it stands: Require passes, nobody is asked.
	if err := Gate(ctx, r, "plan.md", subj(high), assess(high.Tasks), risk.HIGH, GateOptions{Require: true, Ask: answer(false)}); err != nil || asked != 2 {
		t.Fatalf("approved: %v, asked %d", err, asked)
	}
	// Changed since: Require refuses with ErrChanged and prints the diff.
	out.Reset()
	if err := Gate(ctx, r, "plan.md", subj(low), assess(low.Tasks), risk.HIGH, GateOptions{Require: true, Out: &out}); !errors.Is(err, ErrChanged) ||
		!strings.Contains(out.String(), "-git push origin main\n+echo hi > hi.txt\n") {
		t.Fatalf("changed: %v\n%s", err, out.String())
	}
}
