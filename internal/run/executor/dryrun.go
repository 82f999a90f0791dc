package executor

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/approval"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/internal/run/runstart"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// dryRun prints what a run would do and changes nothing. In a repository
// it then makes the checks the run makes before its rollback commit, in
// the run's order and through the same functions, says what the rollback
// commit would take, and ends with the refusal the run would give (the
// same message and exit code). r.repo is nil outside a repository.
func (r *runner) dryRun(ctx context.Context) (*Result, error) {
	sel, _, err := selectTasks(ctx, r.pf, r.repo, r.Setup, r.o)
	if err != nil {
		return nil, err
	}
	if err := refuseMisread(r.Setup, r.planRel, sel.Run); err != nil {
		return nil, err
	}
	r.DryRun(ctx, r.o.Out, r.planRel, r.repo != nil, sel)
	if r.o.Jobs > 1 {
		wavepkg.DryRun(r.o.Out, r.o.Jobs, r.Waves(sel.Run))
	}
	if r.repo == nil {
		return &Result{Status: record.RunDryRun}, nil
	}
	fmt.Fprintln(r.o.Out)
	if err := r.dryChecks(ctx, sel); err != nil {
		// The refusal itself goes where the run's would, with its exit code.
		fmt.Fprintln(r.o.Out, "planx: dry run: the run would refuse here, before its rollback commit, changing nothing:")
		return nil, err
	}
	return &Result{Status: record.RunDryRun}, nil
}

// dryChecks are the checks of Run before the rollback commit (admit, the
// agent, consent, the records), none of which changes anything.
func (r *runner) dryChecks(ctx context.Context, sel *runplan.Selection) error {
	if err := runstate.Busy(r.repo); err != nil {
		return err // the run's lock: another planx works here
	}
	if err := refuseStoppedRun(r.repo); err != nil {
		return err
	}
	if len(sel.Drift) > 0 && !r.o.AcceptText {
		return sel.DriftError(r.planRel, r.o.PlanPath)
	}
	for _, d := range sel.Drift {
		fmt.Fprintf(r.o.Out, "planx: dry run: %s's new text would be accepted without running it again (--accept-text: one commit)\n", textsafe.Line(string(d.Task)))
	}
	head, survey, _, err := runstart.Preflight(ctx, r.repo, nil, preflightChecks(r.o, r.Setup, r.planRel, ""))
	if err != nil {
		return err
	}
	tasks := sel.Run
	if slices.ContainsFunc(tasks, func(t *planparse.Task) bool { return r.Executor(t) == planparse.KindAgent }) {
		jail := execute.NewJail(r.Config.Sandbox, []string{r.repo.GitDir, r.repo.CommonDir}, nil)
		if err := execute.CheckAgent(r.AgentSpec(), r.repo.Root, jail); err != nil {
			return err
		}
	}
	if len(tasks) == 0 {
		sel.Nothing(r.o.Out, r.planRel)
		return nil
	}
	if err := r.dryConsent(ctx, tasks); err != nil {
		return err
	}
	if _, err := runstart.NewRecord(ctx, r.repo, recordStart(r.o, r.o.Jobs, r.Setup, r.planRel, r.pinned, head, tasks)); err != nil {
		return err
	}
	r.dryRollback(survey.Changes)
	return nil
}

// dryConsent is the run's consent gate for risky steps, without its
// question: where the run would ask the person, the dry run says so.
func (r *runner) dryConsent(ctx context.Context, tasks []*planparse.Task) error {
	var ask func(string) bool
	asked := false
	if r.o.ask() != nil {
		ask = func(string) bool { asked = true; return false }
	}
	err := r.consent(ctx, tasks, ask, io.Discard)
	if asked {
		fmt.Fprintln(r.o.Out, "planx: dry run: the run would ask you to approve its HIGH or CRITICAL steps (--yes does not ask)")
		return nil
	}
	return err
}

// consent is the run's gate for risky steps (approval.Gate): ask puts the
// question to a person (nil: nobody to ask), out gets what it says.
func (r *runner) consent(ctx context.Context, tasks []*planparse.Task, ask func(string) bool, out io.Writer) error {
	return approval.Gate(ctx, r.repo, r.planRel, r.Subject(), r.Assess(ctx, tasks), risk.Highest(r.Assess(ctx, r.Plan.Order())), approval.GateOptions{
		Require: r.o.RequireApproval, Ask: ask, Yes: r.o.Yes, Out: out})
}

// dryRollback says what the rollback commit would take.
func (r *runner) dryRollback(changes []gitops.Change) {
	if len(changes) == 0 {
		fmt.Fprintln(r.o.Out, "planx: dry run: the work tree is clean: the rollback commit would hold no uncommitted work")
		return
	}
	var paths []string
	for _, c := range changes {
		paths = append(paths, textsafe.Line(c.Path))
	}
	fmt.Fprintf(r.o.Out, "planx: dry run: the rollback commit would take your uncommitted work (%s): %s\n",
		textsafe.Count(len(paths), "file"), recovery.NameSome(paths, 20))
}
