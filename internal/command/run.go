package command

import (
	"context"
	"fmt"
	"os"

	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/drive"
	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// runOptions are `planx run`'s flags and argument, bound by newRunCmd.
type runOptions struct {
	exec       drive.Options
	format     string
	out        outputOptions
	cleanGates bool // --clean-gates, when set: exec.GatesIn
	baseline   bool // --baseline, when set: exec.Baseline
}

func newRunCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &runOptions{}
	e := &o.exec
	return &cli.Command{
		Name:          "run",
		ShellComplete: completePlans(g),
		Usage:         "run a plan: rollback commit, then per task execute, verify, gate and commit",
		ArgsUsage:     "[PLAN]",
		Description: describe(`run checks the repository (no merge or rebase in progress, HEAD on a branch, the plan
valid), commits everything uncommitted as a rollback commit, then takes each open task in
dependency order: runs its steps (or the agent, or stops for a person at a manual task),
verifies with git that it changed what it declared, runs the quality gates and commits it
as "T001: title" with Planx-* trailers. A failure stops the run with the task's changes in
the work tree; planx resume, skip and abort continue like git rebase.`,
			"planx run --dry-run memory-bank/plan/x.md",
			"planx run memory-bank/plan/x.md",
			"planx run --agent claude --attempts 3 --task-timeout 20m plan.md",
			"planx -C ../other-repo run --ci --json --accept-baseline-failures plan.md"),
		Flags: runFlags(o),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 1 {
				return fmt.Errorf("%w: run takes one PLAN argument (planx run memory-bank/plan/x.md)", errUsage)
			}
			if e.Jobs < 0 {
				return fmt.Errorf("%w: --jobs takes a number of at least 1", errUsage)
			}
			e.PlanPath, e.Dir = cmd.Args().First(), g.dir
			if e.PlanPath == "" {
				p, err := findPlan(g.dir)
				if err != nil {
					return err
				}
				fmt.Fprintf(stdio.Out, "planx: running %s (found: no PLAN given)\n", p)
				e.PlanPath = p
			}
			// .planx.yaml may set attempts: pass "unset" on unless given.
			if !cmd.IsSet("attempts") {
				e.Attempts = 0
			}
			if cmd.IsSet("baseline") {
				if !o.baseline && e.AcceptBaselineFailures {
					return fmt.Errorf("%w: --accept-baseline-failures runs the baseline: drop --baseline=false", errUsage)
				}
				e.Baseline = &o.baseline
			}
			if cmd.IsSet("clean-gates") {
				e.GatesIn = map[bool]string{true: drive.GatesClean, false: drive.GatesTree}[o.cleanGates]
			}
			return inCI(o.out.isCI(), dispatch(ctx, g, *o, stdio, runRun))
		},
	}
}

// runFlags are run's flags, writing into o.
func runFlags(o *runOptions) []cli.Flag {
	e := &o.exec
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Usage: "plan dialect (native, speckit, kiro, superpowers, phased, taskmaster); detected when unset", Destination: &o.format},
		&cli.BoolFlag{Name: "all", Usage: "run every task again, also those git has as done", Destination: &e.All},
		&cli.BoolFlag{Name: "optional", Usage: "also run optional tasks (- [ ]* 2.3, (optional))", Destination: &e.Optional},
		&cli.StringSliceFlag{Name: "only", Usage: "run only these tasks, by id or the plan's own label (--only T003,T005 or --only 1.2); a group runs its sub-tasks", Destination: &e.Subset.Only},
		&cli.StringFlag{Name: "from", Usage: "start at this task (id or label), in plan order", Destination: &e.Subset.From},
		&cli.StringFlag{Name: "to", Usage: "stop after this task (id or label), in plan order", Destination: &e.Subset.To},
		&cli.StringFlag{Name: "phase", Usage: "run only the tasks under a phase heading containing this text (--phase 2, --phase setup)", Destination: &e.Subset.Phase},
		&cli.BoolFlag{Name: "accept-drift", Usage: "run done tasks whose text changed since their commit again, instead of stopping (exit 6)", Destination: &e.AcceptDrift},
		&cli.BoolFlag{Name: "accept-text", Usage: "accept the new text of done tasks whose text changed since their commit without running them again (one commit each, recording the old and new hash)", Destination: &e.AcceptText},
		&cli.StringFlag{Name: "topic", Usage: "the plan's topic in the rollback commit and the log's name (default: front matter, file or feature directory name)", Destination: &e.Topic},
		&cli.BoolFlag{Name: "require-clean", Usage: "refuse a dirty work tree instead of snapshotting it in the rollback commit", Destination: &e.RequireClean},
		&cli.BoolFlag{Name: "allow-untracked-secrets", Usage: "let the rollback commit snapshot untracked files that look like secrets (.env*, keys, tokens)", Destination: &e.AllowUntrackedSecrets},
		&cli.BoolFlag{Name: "allow-detached", Usage: "run on a detached HEAD", Destination: &e.AllowDetached},
		&cli.BoolFlag{Name: "no-verify", Usage: "skip the pre-commit and commit-msg hooks on task commits", Destination: &e.NoVerify},
		&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the order, steps and gates, change nothing", Destination: &e.DryRun},
		&cli.DurationFlag{Name: "step-timeout", Usage: "time limit of one step (Go duration, e.g. 5m); 0 means no limit", DefaultText: "no limit", Destination: &e.StepTimeout},
		&cli.DurationFlag{Name: "task-timeout", Usage: "time limit of one task's steps; 0 means no limit (an agent still stops after 30m)", DefaultText: "no limit", Destination: &e.TaskTimeout},
		&cli.StringSliceFlag{Name: "gate", Usage: "add or override a gate: --gate name=command, or name@timeout=command such as --gate 'test@5m=go test ./...' (repeatable; default timeout 10m)", Destination: &e.Gates},
		&cli.StringFlag{Name: "log-dir", Usage: "directory of execution logs (when unset: log_dir of .planx.yaml, else memory-bank/execute)", Destination: &e.LogDir},
		&cli.StringFlag{Name: "agent", Usage: "agent for tasks without steps: a preset (claude, codex, aider, gemini, opencode) or a command reading the prompt on stdin", Destination: &e.Agent},
		&cli.IntFlag{Name: "attempts", Usage: "how many times an agent may try a task; each retry is told why the last one failed (attempts in .planx.yaml changes the default)", Value: 1, Destination: &e.Attempts},
		&cli.BoolFlag{Name: "strict-files", Usage: "fail a task that changes files outside its declared Files", Destination: &e.StrictFiles},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "run up to N parallel-marked ([P]) tasks of a wave at once, each in its own linked work tree, committed in plan order", DefaultText: "jobs: of .planx.yaml, else 1", Destination: &e.Jobs},
		noCacheFlag(&e.NoCache),
		&cli.BoolFlag{Name: "clean-gates", Usage: "run the gates in a clean checkout of exactly the staged tree (what will be committed), a work tree of the run reused from task to task; default: for agent tasks, with the ignored files that were there before the task linked in; =false: in the work tree", Destination: &o.cleanGates},
		&cli.BoolFlag{Name: "baseline", Usage: "before the first task, run the gates every task runs on the base (HEAD and your uncommitted work) in a clean checkout; a gate that fails there stops the run before anything changes, naming the failing tests (default: baseline of .planx.yaml, else off)", Destination: &o.baseline},
		&cli.BoolFlag{Name: "accept-baseline-failures", Usage: "run the baseline and accept the tests it finds failing as known: a task's gate that fails with those tests alone passes with a warning (Planx-Warning: known-failures=...); any other failure fails it", Destination: &e.AcceptBaselineFailures},
		&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "consent to HIGH and CRITICAL steps without being asked (see planx run --dry-run)", Destination: &e.Yes},
		&cli.BoolFlag{Name: "require-approval", Usage: "refuse a plan that is not approved as it stands (planx approve)", Destination: &e.RequireApproval},
		ciFlag(&o.out), jsonEventsFlag(&o.out), followFlag(&o.out),
	}
}

// runRun is `planx run` without the flag parsing.
func runRun(ctx context.Context, o runOptions, stdio *IO) error {
	o.exec.Format = planparse.Format(o.format)
	o.exec.In = stdio.In
	o.exec.Output = o.out.output(stdio)
	_, err := drive.Run(ctx, o.exec)
	return err
}

// outputOptions are the flags that choose how a run reports.
type outputOptions struct {
	ci     bool
	json   bool
	follow bool
}

func ciFlag(o *outputOptions) cli.Flag {
	return &cli.BoolFlag{Name: "ci", Usage: "CI mode: plain output, never prompt (default when CI=true)", Destination: &o.ci}
}

func jsonEventsFlag(o *outputOptions) cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print one JSON event per line (run, task, step, gate, warning); progress goes to stderr", Destination: &o.json}
}

func followFlag(o *outputOptions) cli.Flag {
	return &cli.BoolFlag{Name: "follow", Aliases: []string{"v"}, Usage: "show the output of steps, agents and gates as it comes, each line prefixed with its task (it is always kept under .git/planx/runs/<id>/)", Destination: &o.follow}
}

// isCI is --ci, or CI=true in the environment as CI services set it.
func (o outputOptions) isCI() bool { return o.ci || os.Getenv("CI") == "true" }

// output decides how a run reports: a live view on a terminal, plain
// lines in CI or with --ci, JSON events with --json, and GitHub Actions
// annotations and a step summary when GITHUB_ACTIONS=true.
func (o outputOptions) output(stdio *IO) progress.Output {
	tty := stdio.Terminal && !o.isCI()
	gh := os.Getenv("GITHUB_ACTIONS") == "true"
	out := progress.Output{Out: stdio.Out, Err: stdio.Err, Terminal: tty,
		Color: tty && os.Getenv("NO_COLOR") == "", JSON: o.json, GitHub: gh, Follow: o.follow}
	if gh {
		out.SummaryPath = os.Getenv("GITHUB_STEP_SUMMARY")
	}
	return out
}
