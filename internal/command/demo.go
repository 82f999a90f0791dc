package command

import (
	"context"
	_ "embed" // the demo's plan and test runner ship inside the binary
	"fmt"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/drive"
	"github.com/urfave/cli/v3"
)

// The demo plan is also kept in memory-bank/plan/ as the example a newcomer
// reads; a test checks both copies are identical.
//
//go:embed demo/plan.md
var demoPlan []byte

//go:embed demo/run-tests.sh
var demoTestRunner []byte

const demoPlanPath = "memory-bank/plan/greeting-tool.md"

type demoOptions struct {
	dir string // where to create the throwaway repository; a new temp dir when empty
}

func newDemoCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &demoOptions{}
	return &cli.Command{
		Name:  "demo",
		Usage: "run a small plan in a throwaway repository and show the resulting history",
		Description: describe(`demo creates a git repository with a small shell project, writes the example plan
memory-bank/plan/greeting-tool.md into it, runs the plan with planx run and prints the
resulting git log with its Planx-* trailers: a minute to see what planx does without
touching any repository of yours.`,
			"planx demo",
			"planx demo --dir /tmp/planx-demo && git -C /tmp/planx-demo log --stat"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "create the demo repository in `DIR` (must not exist or be empty)", Destination: &o.dir},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return dispatch(ctx, g, *o, stdio, runDemo)
		},
	}
}

func runDemo(ctx context.Context, o demoOptions, stdio *IO) error {
	dir := o.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "planx-demo-")
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		dir = d
	} else if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%w: demo directory %s is not empty; name a new one", errUsage, dir)
	}
	repo, err := gitops.Init(ctx, dir, "main")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	// A fresh machine may have no git identity; the throwaway repo gets its own.
	for k, v := range map[string]string{"user.name": "planx demo", "user.email": "demo@planx.invalid"} {
		if err := repo.Config().Set(ctx, k, v); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "run-tests.sh"), demoTestRunner, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := repo.Index().StageAll(ctx); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if _, err := repo.Commits().Commit(ctx, "Initial commit: test runner\n", gitops.CommitOptions{}); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	// The plan stays uncommitted on purpose: the rollback commit snapshots it.
	planAbs := filepath.Join(dir, filepath.FromSlash(demoPlanPath))
	if err := os.MkdirAll(filepath.Dir(planAbs), 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := os.WriteFile(planAbs, demoPlan, 0o644); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(stdio.Out, "planx demo: throwaway repository %s\n$ planx run %s\n\n", dir, demoPlanPath)
	res, err := drive.Run(ctx, drive.Options{
		PlanPath: planAbs, Dir: dir,
		Output: progress.Output{Out: stdio.Out, Err: stdio.Err, Terminal: stdio.Terminal,
			Color: stdio.Terminal && os.Getenv("NO_COLOR") == ""},
	})
	if err != nil {
		fmt.Fprintf(stdio.Err, "planx demo: the demo repository is left in %s\n", dir)
		return err
	}
	history, err := repo.Git(ctx, nil, "log", "--oneline")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(stdio.Out, "\n$ git log --oneline\n%s\nExecution log: %s\nReview it: cd %s && git log --format=fuller -p\n",
		history, filepath.Join(dir, filepath.FromSlash(res.LogPath)), dir)
	if o.dir == "" {
		fmt.Fprintf(stdio.Out, "The demo repository stays in %s; remove it when done: rm -rf %s\n", dir, dir)
	}
	return nil
}
