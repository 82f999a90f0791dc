package command

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/planx-dev/planx/internal/approval"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/drive"
	"github.com/planx-dev/planx/internal/run/handoff"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// ciRunOptions are the plumbing jobs' flags: `planx ci start`, `task` and
// `land`, which the workflow planx ci github writes runs, each in its own
// clone of the repository.
type ciRunOptions struct {
	Dir, Plan string
	CI        string // the CI run's id: one state ref per workflow run
	Remote    string
	Task      string
	Wave      int
	Jobs      int
	out       outputOptions
}

// ciRunCmds are the jobs' hidden commands.
func ciRunCmds(stdio *IO, g *globalOptions) []*cli.Command {
	o := &ciRunOptions{}
	common := func(more ...cli.Flag) []cli.Flag {
		return append([]cli.Flag{
			&cli.StringFlag{Name: "run", Usage: "the CI run's `ID` (one per workflow run)", Destination: &o.CI, Required: true},
			&cli.StringFlag{Name: "remote", Usage: "the `REMOTE` the jobs share", Value: "origin", Destination: &o.Remote},
		}, more...)
	}
	act := func(run func(context.Context, ciRunOptions, *IO) error) cli.ActionFunc {
		return func(ctx context.Context, cmd *cli.Command) error {
			o.Dir, o.Plan = g.dir, cmd.Args().First()
			if err := handoff.CheckID(o.CI); err != nil {
				return fmt.Errorf("%w: --run: %w", errUsage, err)
			}
			return dispatch(ctx, g, *o, stdio, run)
		}
	}
	return []*cli.Command{
		{Name: "start", Hidden: true, ArgsUsage: "PLAN", Usage: "start a run whose parallel waves CI jobs run (a workflow's start job)",
			Flags:  common(&cli.IntFlag{Name: "jobs", Value: 4, Usage: "the run's --jobs", Destination: &o.Jobs}),
			Action: act(runCIStart)},
		{Name: "task", Hidden: true, Usage: "run one task of the wave in flight and publish its result (a wave's matrix job)",
			Flags:  common(&cli.StringFlag{Name: "task", Required: true, Usage: "the task's `ID`", Destination: &o.Task}),
			Action: act(runCITask)},
		{Name: "land", Hidden: true, Usage: "land the wave in flight from its task jobs' results and go on to the next (a wave's landing job)",
			Flags:  common(&cli.IntFlag{Name: "wave", Required: true, Usage: "the wave's number `N`", Destination: &o.Wave}),
			Action: act(runCILand)},
	}
}

func (o ciRunOptions) carrier(ctx context.Context) (handoff.Carrier, error) {
	repo, err := openRepo(ctx, o.Dir)
	return handoff.Carrier{Repo: repo, Remote: o.Remote, CI: o.CI}, err
}

// handedOff is a job's end: a run handed off to the next wave's jobs is
// no failure. (A stop at a manual task is one in CI: inCI.)
func handedOff(err error) error {
	if errors.Is(err, drive.ErrHandedOff) {
		return nil
	}
	return err
}

// runCIStart runs the plan up to its first parallel wave (its rollback
// commit, the tasks before that wave), then publishes the run, even when
// it stopped: a stopped run is resumed from what was published.
func runCIStart(ctx context.Context, o ciRunOptions, stdio *IO) error {
	if o.Plan == "" {
		return fmt.Errorf("%w: ci start takes the PLAN", errUsage)
	}
	c, err := o.carrier(ctx)
	if err != nil {
		return err
	}
	// The plan's approvals (planx approve) are refs a checkout does not
	// fetch: without them HIGH and CRITICAL steps are refused here.
	if err := c.Repo.Remote(o.Remote).Fetch(ctx, "+"+approval.RefPrefix+"*:"+approval.RefPrefix+"*"); err != nil {
		return err
	}
	_, err = drive.Run(ctx, drive.Options{PlanPath: o.Plan, Dir: o.Dir, Jobs: max(o.Jobs, 2), HandOff: true, Output: o.out.output(stdio)})
	if perr := publishRun(ctx, c); perr != nil {
		return errors.Join(inCI(true, handedOff(err)), perr)
	}
	return inCI(true, handedOff(err))
}

// publishRun publishes the run as it is now: handed off or stopped, its
// state for the next job; completed, the branch alone.
func publishRun(ctx context.Context, c handoff.Carrier) error {
	st, err := runstate.Load(c.Repo)
	switch {
	case err != nil:
		return err
	case st == nil || st.Status == record.RunCompleted:
		return c.PublishEnd(ctx)
	}
	return c.Publish(ctx, st)
}

// runCITask runs one task of the wave in flight as the wave runs it
// locally, in a slot of this clone, and publishes its result.
func runCITask(ctx context.Context, o ciRunOptions, stdio *IO) error {
	c, st, err := o.restored(ctx)
	if err != nil {
		return err
	}
	id := planparse.TaskID(o.Task)
	if !slices.Contains(st.Wave, id) && st.Current == id {
		// The run stopped at this task when its wave landed: its landing
		// job runs it again (a resume), as planx resume would.
		fmt.Fprintf(stdio.Out, "planx: the run stopped at %s; the landing job resumes it there\n", id)
		return nil
	}
	began := time.Now()
	_, err = drive.RunTask(ctx, drive.ResumeOptions{Dir: o.Dir, Output: o.out.output(stdio)}, id)
	wall := time.Since(began)
	if errors.Is(err, drive.ErrNotInWave) {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if errors.Is(err, drive.ErrTaskFailed) {
		if perr := c.PublishFailed(ctx, st, o.Task); perr != nil {
			return errors.Join(err, perr)
		}
	}
	if err != nil {
		return err
	}
	if st, err = runstate.Load(c.Repo); err != nil {
		return err
	}
	return c.PublishTask(ctx, st, o.Task, wall)
}

// runCILand takes the wave's published results in (checked against their
// work), lands the wave as a resume after a crash lands it (a task without
// a result fails there), goes on to the next parallel wave and publishes
// the run and the branch.
func runCILand(ctx context.Context, o ciRunOptions, stdio *IO) error {
	c, st, err := o.restored(ctx)
	if err != nil {
		return err
	}
	if len(st.Wave) > 0 {
		if st.WaveNumber != o.Wave {
			return fmt.Errorf("%w: wave %d is in flight, not wave %d", errUsage, st.WaveNumber, o.Wave)
		}
		want, err := taskGates(c.Repo.Root, st)
		if err != nil {
			return err
		}
		taken, err := c.Gather(ctx, st, st.PlanPath, want)
		if err != nil {
			return err
		}
		if err := sayTaken(stdio, o.Wave, taken); err != nil {
			return err
		}
	}
	_, err = drive.Resume(ctx, drive.ResumeOptions{Dir: o.Dir, Landing: true, HandOff: true, Output: o.out.output(stdio)})
	if perr := publishRun(ctx, c); perr != nil {
		return errors.Join(inCI(true, handedOff(err)), perr)
	}
	return inCI(true, handedOff(err))
}

// restored is the carrier of the CI run and its state, restored into this
// clone from the remote.
func (o ciRunOptions) restored(ctx context.Context) (handoff.Carrier, *runstate.State, error) {
	c, err := o.carrier(ctx)
	if err != nil {
		return c, nil, err
	}
	st, err := c.Restore(ctx)
	return c, st, err
}
