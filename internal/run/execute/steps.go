package execute

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/planparse"
)

// Steps runs a task's marked steps in order with `bash -e`, o.Dir as cwd,
// recording each in the task's log entry lt; the first failing step fails
// the task. With o.StepSpace they run in a task space over o.Dir, whose
// change is taken into o.Dir when they end (stepspace.go). The serial loop
// and a wave's slot run steps through it alike.
func Steps(ctx context.Context, t *planparse.Task, lt *execlog.Task, o Options) (StepsEnd, error) {
	lt.Commands = lt.Commands[:0]
	wrap, jailEnv, done, err := o.Jail.steps(t, lt, o.Dir, filepath.Join(o.OutDir, "agent"))
	if err != nil {
		return StepsEnd{}, err
	}
	defer done()
	sp, err := o.openStepSpace(t)
	if err != nil {
		return StepsEnd{}, err
	}
	if sp == nil {
		return StepsEnd{}, o.runSteps(ctx, t, lt, wrap, jailEnv)
	}
	err = o.runSteps(ctx, t, lt, sp.Wrap, jailEnv)
	// The steps' work reaches the work tree however they ended: a failed
	// task's is where the person fixes it.
	end, terr := o.takeSteps(context.WithoutCancel(ctx), t, sp)
	return end, o.stepsErr(t, err, terr)
}

// stepsErr is how a task's steps ended (err) together with what taking
// their work out of their space found (terr): a failure of each is said,
// and one that is not a failure (a space that could not be read) wins.
func (o Options) stepsErr(t *planparse.Task, err, terr error) error {
	var f, g *outcome.Failure
	switch {
	case terr == nil:
		return err
	case err == nil || !errors.As(terr, &g):
		return cmp.Or(terr, err)
	case errors.As(err, &f):
		f.What += "; and " + g.What
		f.Hint = cmp.Or(g.Hint, f.Hint)
		return err
	}
	o.Out.Warn(t.ID, g.What+"; "+g.Hint) // interrupted: the stop says the rest
	return err
}

// runSteps runs t's steps in order, each through wrap (nil: as they are).
func (o Options) runSteps(ctx context.Context, t *planparse.Task, lt *execlog.Task, wrap func(*exec.Cmd) error, jailEnv []string) error {
	start := time.Now()
	env := append(o.env(t.ID), jailEnv...)
	for i, s := range t.Steps {
		name := fmt.Sprintf("step %d/%d", i+1, len(t.Steps))
		o.Out.Step(t.ID, name, s.Code)
		disarm := o.Fault.Soon("during-step", 150*time.Millisecond)
		live, flush := o.Out.Live(t.ID)
		res, err := proc.Run(ctx, proc.Spec{
			Name:       fmt.Sprintf("%s %s", t.ID, name),
			Script:     s.Code,
			Dir:        o.Dir,
			Env:        env,
			Timeout:    o.stepTimeout(start),
			Wrap:       wrap,
			OutputPath: filepath.Join(o.OutDir, fmt.Sprintf("%s-step%d.log", t.ID, i+1)),
			Live:       live,
			Started:    o.Pids.Started(),
		})
		flush()
		disarm()
		o.Pids.ChildDone()
		lt.Commands = append(lt.Commands, execlog.Command{Name: name, Command: s.Code,
			ExitCode: res.ExitCode, Duration: res.Duration, Tail: res.Tail, TimedOut: res.TimedOut})
		o.stepEnd(t.ID, name, res)
		if err := stepOutcome(ctx, t, s, name, res, err); err != nil {
			return err
		}
	}
	return nil
}

// stepEnd reports a step's or an agent's end, under the lock Shared when
// other tasks write at the same time.
func (o Options) stepEnd(id planparse.TaskID, name string, res proc.Result) {
	if o.Shared != nil {
		o.Shared.Lock()
		defer o.Shared.Unlock()
	}
	o.Out.StepEnd(id, name, res.ExitCode, res.Duration)
}

// stepOutcome maps a step's run to what it means for its task: nil when it
// passed, context.Canceled when interrupted, an outcome.Failure when it failed
// or timed out; in a serial run or a wave alike.
func stepOutcome(ctx context.Context, t *planparse.Task, s planparse.Step, name string, res proc.Result, err error) error {
	if err != nil {
		return fmt.Errorf("%s of %s (plan line %d): %w", name, t.ID, s.Line, err)
	}
	switch {
	case res.Interrupted || ctx.Err() != nil:
		return context.Canceled
	case res.TimedOut:
		return &outcome.Failure{What: fmt.Sprintf("%s (plan line %d) timed out after %s", name, s.Line, res.Duration.Round(time.Millisecond)), Tail: res.Tail}
	case !res.OK():
		return &outcome.Failure{What: fmt.Sprintf("%s (plan line %d) failed with exit code %d", name, s.Line, res.ExitCode), Tail: res.Tail}
	}
	return nil
}
