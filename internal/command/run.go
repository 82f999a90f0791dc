package command

import (
	"context"
	"fmt"
	"os"

	"github.com/planx-dev/planx/executor"
	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// runOptions are `planx run`'s flags.
type runOptions struct {
	exec executor.Options
}

func newRunCmd(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a plan: rollback commit, then per task execute, verify, gate and commit",
		ArgsUsage: "PLAN",
		Flags: []cli.Flag{
			dirFlag(),
			&cli.StringFlag{Name: "format", Usage: "plan dialect (native, speckit, kiro, superpowers, phased, taskmaster); detected when unset"},
			&cli.BoolFlag{Name: "all", Usage: "also run tasks already ticked done in the plan"},
			&cli.BoolFlag{Name: "require-clean", Usage: "refuse a dirty work tree instead of snapshotting it in the rollback commit"},
			&cli.BoolFlag{Name: "allow-detached", Usage: "run on a detached HEAD"},
			&cli.BoolFlag{Name: "no-verify", Usage: "skip the pre-commit and commit-msg hooks on task commits"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the order, steps and gates, change nothing"},
			&cli.DurationFlag{Name: "step-timeout", Usage: "time limit of one step (Go duration, e.g. 5m)"},
			&cli.DurationFlag{Name: "task-timeout", Usage: "time limit of one task's steps"},
			&cli.StringSliceFlag{Name: "gate", Usage: "add or override a gate: --gate name=command, or name@timeout=command such as --gate 'test@5m=go test ./...' (repeatable; default timeout 10m)"},
			&cli.StringFlag{Name: "log-dir", Usage: "directory of execution logs (default memory-bank/execute)"},
			&cli.StringFlag{Name: "agent", Usage: "agent for tasks without steps: a preset (claude, codex, aider, gemini, opencode) or a command reading the prompt on stdin"},
			&cli.IntFlag{Name: "attempts", Usage: "how many times an agent may try a task; each retry is told why the last one failed (default 1)"},
			&cli.BoolFlag{Name: "strict-files", Usage: "fail a task that changes files outside its declared Files"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "consent to HIGH and CRITICAL steps without being asked (see planx run --dry-run)"},
			&cli.BoolFlag{Name: "require-approval", Usage: "refuse a plan that is not approved as it stands (planx approve)"},
			ciFlag(), jsonEventsFlag(),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return fmt.Errorf("%w: run takes exactly one PLAN argument (planx run memory-bank/plan/x.md)", errUsage)
			}
			opts := runOptions{
				exec: executor.Options{
					PlanPath:        cmd.Args().First(),
					Dir:             cmd.String("C"),
					Format:          planparse.Format(cmd.String("format")),
					All:             cmd.Bool("all"),
					RequireClean:    cmd.Bool("require-clean"),
					AllowDetached:   cmd.Bool("allow-detached"),
					NoVerify:        cmd.Bool("no-verify"),
					DryRun:          cmd.Bool("dry-run"),
					StepTimeout:     cmd.Duration("step-timeout"),
					TaskTimeout:     cmd.Duration("task-timeout"),
					Gates:           cmd.StringSlice("gate"),
					LogDir:          cmd.String("log-dir"),
					Agent:           cmd.String("agent"),
					Attempts:        cmd.Int("attempts"),
					StrictFiles:     cmd.Bool("strict-files"),
					Yes:             cmd.Bool("yes"),
					RequireApproval: cmd.Bool("require-approval"),
					In:              stdio.In,
				},
			}
			opts.exec.Output = outputFor(cmd, stdio)
			return inCI(ciMode(cmd), runRun(ctx, opts, stdio))
		},
	}
}

// runRun is `planx run` without the flag parsing.
func runRun(ctx context.Context, opts runOptions, stdio *IO) error {
	_, err := executor.Run(ctx, opts.exec)
	return err
}

func dirFlag() cli.Flag {
	return &cli.StringFlag{Name: "C", Usage: "run as if planx was started in `DIR`"}
}

func ciFlag() cli.Flag {
	return &cli.BoolFlag{Name: "ci", Usage: "CI mode: plain output, never prompt (default when CI=true)"}
}

func ciMode(cmd *cli.Command) bool {
	return cmd.Bool("ci") || os.Getenv("CI") == "true"
}

func jsonEventsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print one JSON event per line (run, task, step, gate, warning); progress goes to stderr"}
}

// outputFor decides how a run reports: a live view on a terminal, plain
// lines in CI or with --ci, JSON events with --json, and GitHub Actions
// annotations and a step summary when GITHUB_ACTIONS=true.
func outputFor(cmd *cli.Command, stdio *IO) executor.Output {
	ci := ciMode(cmd)
	tty := stdio.Terminal && !ci
	gh := os.Getenv("GITHUB_ACTIONS") == "true"
	o := executor.Output{Out: stdio.Out, Err: stdio.Err, Terminal: tty,
		Color: tty && os.Getenv("NO_COLOR") == "", JSON: cmd.Bool("json"), GitHub: gh}
	if gh {
		o.SummaryPath = os.Getenv("GITHUB_STEP_SUMMARY")
	}
	return o
}
