package executor

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
)

// runSteps runs a task's marked steps in order with `bash -e`, repository
// root as cwd; the first failing step fails the task.
func (r *runner) runSteps(ctx context.Context, t *planparse.Task, lt *execlog.Task) error {
	start := time.Now()
	lt.Commands = lt.Commands[:0]
	wrap, env, done, err := r.stepJail(t, lt)
	if err != nil {
		return err
	}
	defer done()
	for i, s := range t.Steps {
		name := fmt.Sprintf("step %d/%d", i+1, len(t.Steps))
		r.out.Step(name, s.Code)
		disarm := r.fault.Soon("during-step", 150*time.Millisecond)
		live, flush := r.out.Live(t.ID)
		res, err := proc.Run(ctx, proc.Spec{
			Name:       fmt.Sprintf("%s %s", t.ID, name),
			Script:     s.Code,
			Dir:        r.repo.Root,
			Env:        append(r.env(t), env...),
			Timeout:    r.stepTimeout(start),
			Wrap:       wrap,
			OutputPath: filepath.Join(runstate.RunDir(r.repo, r.st.RunID), fmt.Sprintf("%s-step%d.log", t.ID, i+1)),
			Live:       live,
			Started:    r.pids().childStarted,
		})
		flush()
		disarm()
		r.pids().childDone()
		lt.Commands = append(lt.Commands, execlog.Command{Name: name, Command: s.Code,
			ExitCode: res.ExitCode, Duration: res.Duration, Tail: res.Tail, TimedOut: res.TimedOut})
		r.out.StepEnd(t.ID, name, res.ExitCode, res.Duration)
		if err := stepOutcome(ctx, t, s, name, res, err); err != nil {
			return err
		}
	}
	return nil
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
