package admit

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/approval"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/internal/run/runstart"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// DryRun prints what a run would do and changes nothing. In a repository
// it then makes the checks the run makes before its rollback commit, in
// the run's order and through the same functions, says what the rollback
// commit would take, and ends with the refusal the run would give (the
// same message and exit code). p.Repo is nil outside a repository.
func (p *Prepared) DryRun(ctx context.Context) error {
	sel, _, err := Select(ctx, p.PF, p.Repo, p.Setup, p.O)
	if err != nil {
		return err
	}
	if err := RefuseMisread(p.Setup, p.PlanRel, sel.Run); err != nil {
		return err
	}
	p.Setup.DryRun(ctx, p.O.Out, p.PlanRel, p.Repo != nil, sel)
	if p.O.Jobs > 1 {
		wave.DryRun(p.O.Out, p.O.Jobs, p.Waves(sel.Run))
	}
	if p.Repo == nil {
		return nil
	}
	fmt.Fprintln(p.O.Out)
	if err := p.dryChecks(ctx, sel); err != nil {
		// The refusal itself goes where the run's would, with its exit code.
		fmt.Fprintln(p.O.Out, "planx: dry run: the run would refuse here, before its rollback commit, changing nothing:")
		return err
	}
	return nil
}

// dryChecks are the checks of Run before the rollback commit (admit, the
// agent, consent, the records), none of which changes anything.
func (p *Prepared) dryChecks(ctx context.Context, sel *runplan.Selection) error {
	if err := runstate.Busy(p.Repo); err != nil {
		return err // the run's lock: another planx works here
	}
	if err := RefuseStoppedRun(p.Repo); err != nil {
		return err
	}
	if len(sel.Drift) > 0 && !p.O.AcceptText {
		return sel.DriftError(p.PlanRel, p.O.PlanPath)
	}
	for _, d := range sel.Drift {
		fmt.Fprintf(p.O.Out, "planx: dry run: %s's new text would be accepted without running it again (--accept-text: one commit)\n", textsafe.Line(string(d.Task)))
	}
	head, survey, _, err := runstart.Preflight(ctx, p.Repo, nil, PreflightChecks(p.O, p.Setup, p.PlanRel, ""))
	if err != nil {
		return err
	}
	tasks := sel.Run
	if slices.ContainsFunc(tasks, func(t *planparse.Task) bool { return p.Executor(t) == planparse.KindAgent }) {
		jail := execute.NewJail(p.Config.Sandbox, []string{p.Repo.GitDir, p.Repo.CommonDir}, nil)
		if err := execute.CheckAgent(p.AgentSpec(), p.Repo.Root, jail); err != nil {
			return err
		}
	}
	if len(tasks) == 0 {
		sel.Nothing(p.O.Out, p.PlanRel)
		return nil
	}
	if err := p.dryConsent(ctx, tasks); err != nil {
		return err
	}
	if _, err := runstart.NewRecord(ctx, p.Repo, RecordStart(p.O, p.O.Jobs, p.Setup, p.PlanRel, p.Pinned, head, tasks)); err != nil {
		return err
	}
	p.dryRollback(survey.Changes)
	return nil
}

// dryConsent is the run's consent gate for risky steps, without its
// question: where the run would ask the person, the dry run says so.
func (p *Prepared) dryConsent(ctx context.Context, tasks []*planparse.Task) error {
	var ask func(string) bool
	asked := false
	if p.O.Ask() != nil {
		ask = func(string) bool { asked = true; return false }
	}
	err := p.Consent(ctx, tasks, ask, io.Discard)
	if asked {
		fmt.Fprintln(p.O.Out, "planx: dry run: the run would ask you to approve its HIGH or CRITICAL steps (--yes does not ask)")
		return nil
	}
	return err
}

// Consent is the run's gate for risky steps (approval.Gate): ask puts the
// question to a person (nil: nobody to ask), out gets what it says.
func (p *Prepared) Consent(ctx context.Context, tasks []*planparse.Task, ask func(string) bool, out io.Writer) error {
	return approval.Gate(ctx, p.Repo, p.PlanRel, p.Subject(), p.Assess(ctx, tasks), risk.Highest(p.Assess(ctx, p.Plan.Order())), approval.GateOptions{
		Require: p.O.RequireApproval, Ask: ask, Yes: p.O.Yes, Out: out})
}

// dryRollback says what the rollback commit would take.
func (p *Prepared) dryRollback(changes []gitops.Change) {
	if len(changes) == 0 {
		fmt.Fprintln(p.O.Out, "planx: dry run: the work tree is clean: the rollback commit would hold no uncommitted work")
		return
	}
	var paths []string
	for _, c := range changes {
		paths = append(paths, textsafe.Line(c.Path))
	}
	fmt.Fprintf(p.O.Out, "planx: dry run: the rollback commit would take your uncommitted work (%s): %s\n",
		textsafe.Count(len(paths), "file"), recovery.NameSome(paths, 20))
}
