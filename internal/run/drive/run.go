package drive

import (
	"cmp"
	"context"
	"fmt"
	"sync"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/admit"
	"github.com/planx-dev/planx/internal/run/aside"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/land"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/rewind"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/internal/run/runstart"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/internal/run/verify"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// runner carries one run (or resume) through its tasks.
type runner struct {
	o              Options
	repo           *gitops.Repo              // nil for a dry run outside a repository
	done           map[planparse.TaskID]bool // tasks git (or a hand tick) has as done
	*runplan.Setup                           // the plan, its configuration and gates: what the run executes
	pf             *planfile.File            // the plan file and the bytes planx last read or wrote there
	planRel        string                    // the plan's path, repo-relative, slash-separated
	pinned         *runstate.Pinned          // pinned at run start: cfg and gates come from it
	st             *runstate.State
	log            *execlog.Log
	out            *progress.Progress

	preChecks []execlog.Check
	fault     fault.Hook // PLANX_FAULT, for the crash tests
	dirty     []string   // paths dirty before the next task starts (clean after a commit)
	// hand are a person's edits after the stop a resume found, not yet
	// shown to be a task's: each task run in the work tree commits those
	// that belong to it (verify.Belongs) and leaves the rest for the next.
	hand   verify.Hand
	head   gitops.Head
	expect gitops.SHA // where HEAD must be when a task ends: planx's last commit
	land.CommitPath
	ignored []string // ignored entries that existed when the run (or resume) started
	// survey is the preflight's one git status of the work tree;
	// nil on resume, and dropped once a question to the person let time
	// pass in which the tree could change.
	survey *gitops.Survey
	// early is that status, started as soon as the run holds its lock so
	// that it runs while the history is read for done tasks (survey.go).
	early *runstart.Early

	reaper execute.Reaper // whether planx is the subreaper of detached descendants
	pool   *wavepkg.Pool  // linked work trees: parallel waves, clean gates, the judge's runs (keeper's Pool)
	jail   *execute.Jail  // how agents (and opted-in steps) are confined, probed once
	// hidden is the hidden tests' directory (hidden_tests:), checked at
	// the run's start: hidden from agents, added to the judge's checkout.
	hidden string
	// gates runs the run's gates: selection, cache, clean checkouts,
	// baseline, final gates (keeper).
	gateKeeper *taskgate.Keeper
	// shared guards the run's log and output while a wave's tasks run at
	// once (the wave's lock).
	shared sync.Mutex
	// landing is a resume that lands a handed-off wave: a task of it with
	// no work (its task job published none) fails instead of running here.
	landing bool
}

// Run executes a plan: preflight, rollback commit, then each pending task.
func Run(ctx context.Context, o Options) (*Result, error) {
	p, err := admit.Prepare(ctx, o, nil)
	if err != nil {
		return nil, err
	}
	if o.DryRun {
		if err := p.DryRun(ctx); err != nil {
			return nil, err
		}
		return &Result{Status: record.RunDryRun}, nil
	}
	r := newRunner(p)
	r.arm()
	defer r.jail.Settle()
	lk, err := runstate.Acquire(r.repo, "run")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	// A signal before the run's first task is said as what it is, not as
	// the git command it cancelled (stoppedBeforeBase).
	r.early = runstart.StartSurvey(ctx, r.repo)
	defer r.early.Wait()
	sel, done, err := admit.Select(ctx, r.pf, r.repo, r.Setup, r.o)
	if r.done = done; err != nil {
		return nil, stoppedBeforeBase(ctx, r.repo, err)
	}
	tasks := sel.Run
	head, survey, pre, err := r.admit(ctx, sel)
	if err != nil {
		return nil, stoppedBeforeBase(ctx, r.repo, err)
	}
	r.head, r.survey, r.preChecks = head, survey, pre
	if err := r.checkAgents(tasks); err != nil {
		return nil, stoppedBeforeBase(ctx, r.repo, err)
	}
	sel.Report(r.out)
	if len(tasks) == 0 {
		sel.Nothing(r.o.Out, r.planRel)
		return &Result{Status: record.RunCompleted}, nil
	}
	// Risky steps need consent before anything changes.
	if err := p.Consent(ctx, tasks, runstart.StaleAsk(r.o.Ask(), func() { r.survey = nil }), r.out.Writer()); err != nil {
		return nil, stoppedBeforeBase(ctx, r.repo, err)
	}
	if r.log, r.st, err = newRecord(ctx, r.repo, o, r.o.Jobs, r.Setup, r.planRel, r.pinned, head, tasks); err != nil {
		return nil, stoppedBeforeBase(ctx, r.repo, err)
	}
	if r.st.Hidden, r.st.HiddenTooMany, err = verify.HiddenBaseline(ctx, r.repo); err != nil {
		return nil, stoppedBeforeBase(ctx, r.repo, err)
	}
	r.ignored = aside.Note(ctx, r.repo, r.survey, r.ignored)
	at := taskgate.Base{Head: head, Clean: r.survey != nil && len(r.survey.Changes) == 0, Ignored: r.ignored}
	if err := r.keeper().Baseline(ctx, at, &r.preChecks); err != nil {
		return nil, stoppedBeforeBase(ctx, r.repo, err)
	}
	aside.Keep(r.repo, r.ignored, r.Config.KeepIgnored, r.desk())
	base, err := r.rollbackOf().Make(ctx)
	if err != nil {
		return nil, stoppedBeforeBase(ctx, r.repo, err)
	}
	r.expect = base
	r.out.RunStart(r.planRel, r.st.RunID, base, len(tasks))
	if len(r.Gates) == 0 {
		r.out.RunWarn(runstart.NoGates)
	}
	r.planWarnings()
	if !r.reaper.On {
		r.out.Println("planx: note: detached processes: %s", r.reaper.Note)
	}
	return (&waveLoop{r: r}).run(ctx, tasks)
}

// admit makes the checks a run passes before anything changes: no stopped
// run, no drift unless accepted, no task the run would misread, the
// preflight; then it accepts the drifted tasks' new text (--accept-text),
// whose commits move HEAD but not the tree. It returns the preflight's.
func (r *runner) admit(ctx context.Context, sel *runplan.Selection) (gitops.Head, *gitops.Survey, []execlog.Check, error) {
	if err := admit.RefuseStoppedRun(r.repo); err != nil {
		return gitops.Head{}, nil, nil, err
	}
	if len(sel.Drift) > 0 && !r.o.AcceptText {
		return gitops.Head{}, nil, nil, sel.DriftError(r.planRel, r.o.PlanPath)
	}
	if err := cmp.Or(admit.RefuseMisread(r.Setup, r.planRel, sel.Run), r.findHidden(ctx)); err != nil {
		return gitops.Head{}, nil, nil, err
	}
	head, survey, pre, err := runstart.Preflight(ctx, r.repo, r.early, admit.PreflightChecks(r.o, r.Setup, r.planRel, r.reaper.Note))
	if err != nil {
		return gitops.Head{}, nil, nil, err
	}
	if len(sel.Drift) > 0 {
		if err := r.acceptText(ctx, sel, &head); err != nil {
			return gitops.Head{}, nil, nil, err
		}
	}
	return head, survey, pre, nil
}

// planWarnings says the plan's warnings, those validate prints, as the run
// starts: a line planx does not read as a task (a malformed ID) must not
// be dropped without a word because the person ran the plan directly.
func (r *runner) planWarnings() {
	for _, d := range r.Plan.Diagnostics {
		if d.Severity != planparse.SeverityWarning {
			continue
		}
		msg := fmt.Sprintf("%s:%d: %s", r.planRel, d.Line, d.Message)
		if d.Hint != "" {
			msg += " (" + d.Hint + ")"
		}
		r.out.RunWarn(msg)
	}
}

// newRecord starts the run's two records, the execution log and the run
// state, for running tasks of setup's plan (at planRel, pinned as pinned)
// from head, as o (the options as given; jobs as the run takes them) says.
func newRecord(ctx context.Context, repo *gitops.Repo, o Options, jobs int, setup *runplan.Setup, planRel string, pinned *runstate.Pinned,
	head gitops.Head, tasks []*planparse.Task) (*execlog.Log, *runstate.State, error) {
	st, err := runstart.NewRecord(ctx, repo, admit.RecordStart(o, jobs, setup, planRel, pinned, head, tasks))
	if err != nil {
		return nil, nil, err
	}
	// The run starts: the slots earlier runs left unused too long go.
	wavepkg.PruneIdle(repo, setup.Config.SlotIdle, st.Started)
	return st.Log, st, nil
}

// newRunner is the runner of the run p prepared.
func newRunner(p *admit.Prepared) *runner {
	return &runner{o: p.O, repo: p.Repo, planRel: p.PlanRel, pf: p.PF, Setup: p.Setup, pinned: p.Pinned,
		out: progress.New(p.O.Output), CommitPath: p.Paths}
}

// arm readies a prepared runner to execute tasks: planx becomes the
// subreaper of what they detach, the crash tests' fault point
// (PLANX_FAULT) is read and the jail is made (its task spaces probed in
// the background from now on, the rest at its first use).
// Status, Assess and a dry run execute nothing and do none of it.
func (r *runner) arm() {
	r.reaper = execute.StartReaper()
	r.fault = fault.FromEnv()
	// The first agent to meet the sandbox may be one of a wave's: its
	// warning goes under the lock the wave's tasks share.
	r.jail = execute.NewJail(r.Config.Sandbox, []string{r.repo.GitDir, r.repo.CommonDir}, hall.InWave(r.desk(), &r.shared))
	r.jail.Warm(r.repo.Root)
}

// findHidden checks the hidden tests' directory (hidden_tests:) where the
// run (or its resume) starts: outside the repository, there, and when it
// names a ref of a repository, that ref's files readable.
func (r *runner) findHidden(ctx context.Context) error {
	dir, err := admit.HiddenDir(ctx, r.Config, r.repo)
	if err != nil {
		return err
	}
	r.hidden = dir
	return nil
}

// checkAgents refuses, before the rollback commit, a run whose agent
// tasks could not start, or whose reviewer could not (admit.CheckAgents).
func (r *runner) checkAgents(tasks []*planparse.Task) error {
	return admit.CheckAgents(r.Setup, r.repo.Root, r.jail, tasks)
}

// stoppedBeforeBase is the error of a run a signal stopped while it made
// its rollback commit: git's own words for the cancelled command ("git add
// -A: context canceled") say nothing a person can act on. Nothing is
// committed yet; when the run's state was saved, resume starts the run,
// else it never began.
func stoppedBeforeBase(ctx context.Context, repo *gitops.Repo, err error) error {
	if ctx.Err() == nil {
		return err
	}
	st, lerr := runstate.Load(repo)
	if lerr != nil || st == nil {
		return fmt.Errorf("%w before the run started; nothing changed: `planx run` starts it again", ErrInterrupted)
	}
	// ctx is done: what git did is read without it.
	bg := context.WithoutCancel(ctx)
	if head, herr := repo.Head(bg); st.Base != "" || herr == nil && head.SHA != "" && isRollback(bg, repo, head.SHA, st.RunID) {
		return fmt.Errorf("%w right after the run's rollback commit, before its first task: `planx resume` goes on from there, `planx abort` undoes the run", ErrInterrupted)
	}
	return fmt.Errorf("%w before the run's rollback commit; nothing was committed: %s", ErrInterrupted, recovery.NotStartedNext)
}

func isRollback(ctx context.Context, repo *gitops.Repo, sha gitops.SHA, runID string) bool {
	ok, err := rewind.IsRollbackOf(ctx, repo, sha, runID)
	return err == nil && ok
}
