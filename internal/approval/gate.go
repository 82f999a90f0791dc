package approval

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/risk"
)

// GateOptions say how strict Gate is and whether it may ask.
type GateOptions struct {
	// Require refuses any plan not approved as it stands (planx run
	// --require-approval): for CI, where nobody can be asked.
	Require bool
	// Ask puts a yes/no question to the person at the terminal; nil when
	// planx cannot ask (no terminal, --ci).
	Ask func(question string) bool
	// Yes approves HIGH and CRITICAL steps for this run without asking
	// (--yes): scripts state their consent explicitly.
	Yes bool
	// Out receives the risk table, the diff and warnings.
	Out io.Writer
}

// Gate decides whether a run of the plan at planRel (as s) may start with
// tasks, the assessments of the tasks it is about to run; planLevel is the
// highest level over the whole plan, recorded if the person approves:
//
//   - approved as it stands (text and configuration): yes;
//   - Require: no, with the error of Check (ErrNotApproved, or ErrChanged
//     after printing the diff);
//   - otherwise, tasks at LOW or MEDIUM: yes, as before approvals existed;
//   - HIGH or CRITICAL with Ask: the table (and diff) is printed and the
//     person asked; yes records the approval (Approve) and runs, no is
//     ErrNotApproved;
//   - HIGH or CRITICAL with Yes: yes, saying so; without Ask or Yes: no,
//     ErrNotApproved before anything changed (nobody consented to them).
func Gate(ctx context.Context, repo *gitops.Repo, planRel string, s Subject, tasks []risk.Assessment, planLevel risk.Level, o GateOptions) error {
	if o.Out == nil {
		o.Out = io.Discard
	}
	level := risk.Highest(tasks)
	if !o.Require && !risk.NeedsApproval(level) {
		return nil // nothing to consent to: no need to read approvals from git
	}
	_, diff, err := Check(ctx, repo, planRel, s)
	if err == nil {
		return nil
	}
	if !errors.Is(err, ErrNotApproved) && !errors.Is(err, ErrChanged) {
		return err
	}
	if diff != "" {
		fmt.Fprintf(o.Out, "planx: %s changed since it was approved:\n%s", planRel, EscapeDiff(diff))
	}
	if o.Require {
		return err
	}
	fmt.Fprintf(o.Out, "planx: %s has %s steps and is not approved as it stands:\n\n", planRel, level)
	risk.Table(o.Out, tasks)
	if o.Yes {
		fmt.Fprintf(o.Out, "\nplanx: running unapproved %s steps: --yes given\n", level)
		return nil
	}
	if o.Ask == nil {
		return fmt.Errorf("%w: %s has %s steps; confirm with --yes, or review it and record an approval with `planx approve %s`",
			ErrNotApproved, planRel, level, planRel)
	}
	if !o.Ask(fmt.Sprintf("\nApprove %s with %s steps and run it? [y/N] ", planRel, level)) {
		return fmt.Errorf("%w: %s: declined", ErrNotApproved, planRel)
	}
	// The whole plan is approved, not only this run's tasks: record its level.
	rec, aerr := Approve(ctx, repo, planRel, s, planLevel)
	if aerr != nil {
		return aerr
	}
	fmt.Fprintf(o.Out, "planx: approved %s (%s) by %s as %s\n", planRel, rec.Level, rec.Approver, rec.Ref)
	return nil
}
