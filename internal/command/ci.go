package command

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/ghflow"
	"github.com/planx-dev/planx/internal/run/admit"
	"github.com/urfave/cli/v3"
)

// ciGitHubOptions are `planx ci github`'s flags and argument.
type ciGitHubOptions struct {
	Dir, Plan string
	Print     bool
	Output    string // the workflow file, relative to the repository's root
	Jobs      int    // max-parallel of each wave's matrix (0: no bound)
	RunsOn    string
	Install   string
	Optional  bool
}

func newCICmd(stdio *IO, g *globalOptions) *cli.Command {
	return &cli.Command{
		Name:  "ci",
		Usage: "fan a plan's parallel waves out over CI runners (GitHub Actions)",
		Description: describe(`ci github writes a GitHub Actions workflow in which each parallel wave of a plan is a
matrix job, one runner per task, followed by a landing job that lands the wave's tasks on the
branch in plan order, one gated commit each, exactly as planx run --jobs lands them. The jobs
run the plumbing commands ci start, ci task and ci land, which carry the run between runners
under refs/planx/. See docs/ci.md.`,
			"planx ci github --print memory-bank/plan/x.md",
			"planx ci github memory-bank/plan/x.md"),
		Commands: append([]*cli.Command{newCIGitHubCmd(stdio, g)}, ciRunCmds(stdio, g)...),
	}
}

func newCIGitHubCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &ciGitHubOptions{}
	return &cli.Command{
		Name:      "github",
		Usage:     "write a GitHub Actions workflow that runs each wave of the plan as a matrix job, one runner per task",
		ArgsUsage: "PLAN",
		Description: describe(`github cuts the plan's open tasks into the waves planx run --jobs runs them in (the same
computation: [P] tasks, dependencies, declared files) and writes a workflow (workflow_dispatch)
with a start job, then for each wave a matrix job with one entry per task and a landing job
that needs it; the next wave needs the landing before it. The workflow is written to
.github/workflows/planx-<plan>.yml (--output) or printed (--print); write it again when the
plan changes. It needs contents: write. See docs/ci.md.`,
			"planx ci github --print memory-bank/plan/x.md",
			"planx ci github --jobs 8 memory-bank/plan/x.md"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "print", Usage: "print the workflow instead of writing it", Destination: &o.Print},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the workflow to `FILE` (default .github/workflows/planx-<plan>.yml)", Destination: &o.Output},
			&cli.IntFlag{Name: "jobs", Usage: "run at most `N` task jobs of a wave at once (max-parallel; default: no bound)", Destination: &o.Jobs},
			&cli.StringFlag{Name: "runs-on", Usage: "the runners' `LABEL`", Value: "ubuntu-latest", Destination: &o.RunsOn},
			&cli.StringFlag{Name: "install", Usage: "the shell `COMMAND` that installs planx in each job", Value: ghflow.DefaultInstall, Destination: &o.Install},
			&cli.BoolFlag{Name: "optional", Usage: "include optional tasks, as planx run --optional", Destination: &o.Optional},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return fmt.Errorf("%w: ci github takes one PLAN argument (planx ci github memory-bank/plan/x.md)", errUsage)
			}
			if o.Jobs < 0 {
				return fmt.Errorf("%w: --jobs takes a number of at least 1", errUsage)
			}
			o.Dir, o.Plan = g.dir, cmd.Args().First()
			return dispatch(ctx, g, *o, stdio, runCIGitHub)
		},
	}
}

func runCIGitHub(ctx context.Context, o ciGitHubOptions, stdio *IO) error {
	w, err := admit.Waves(ctx, admit.Options{PlanPath: o.Plan, Dir: o.Dir, Optional: o.Optional, Jobs: 2})
	if err != nil {
		return err
	}
	if len(w.Waves) == 0 {
		return fmt.Errorf("%w: %s has no open task to run: nothing to write", errUsage, w.PlanRel)
	}
	spec := ghflow.Spec{Plan: w.PlanRel, MaxParallel: o.Jobs, RunsOn: o.RunsOn, Install: o.Install}
	for _, wave := range w.Waves {
		ids := make([]string, len(wave))
		for i, t := range wave {
			ids[i] = string(t.ID)
		}
		spec.Waves = append(spec.Waves, ids)
	}
	var b bytes.Buffer
	if err := ghflow.Write(&b, spec); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if o.Print {
		_, err := stdio.Out.Write(b.Bytes())
		return err
	}
	repo, err := openRepo(ctx, o.Dir)
	if err != nil {
		return err
	}
	rel := o.Output
	if rel == "" {
		base := strings.TrimSuffix(filepath.Base(w.PlanRel), filepath.Ext(w.PlanRel))
		rel = filepath.Join(".github", "workflows", "planx-"+base+".yml")
	}
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(repo.Root, rel)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("ci github: %w", err)
	}
	if err := fsutil.WriteAtomic(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("ci github: %w", err)
	}
	fmt.Fprintf(stdio.Out, "planx: wrote %s: %d wave(s) of %s\n", filepath.ToSlash(rel), len(spec.Waves), w.PlanRel)
	for i, ids := range spec.Waves {
		fmt.Fprintf(stdio.Out, "  wave %d: %s\n", i+1, strings.Join(ids, " "))
	}
	return nil
}
