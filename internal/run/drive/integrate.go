package drive

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/aside"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/land"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// landing is the wave's integration (wave.Landing) with the run's records
// as values; the integration gate, selected for the wave, runs through
// wv (Gate).
func (wv *wave) landing() *wavepkg.Landing {
	r := wv.r
	return &wavepkg.Landing{Repo: r.repo, Pool: r.pool, Base: wv.base, Number: wv.number, Last: wv.last, Next: wv.next,
		Tasks: wv.its, Plan: r.pf.Src, PlanRel: r.planRel, Parsed: r.Plan, Optional: r.o.Optional, Sign: r.Sign, Hooks: wv.hooks, Fault: r.fault,
		Log: r.log, State: r.st, Done: r.done, Book: r.keeper().Book(), Desk: r.desk(),
		Gated: len(gates.Select(r.Gates, nil, wv.last)) > 0, Runner: wv}
}

// Gate runs the integration gate on the combined tree in dir for the
// pseudo task gt (wave.Runner): the gates the tasks selected.
func (wv *wave) Gate(ctx context.Context, gt *planparse.Task, dir string, tasks []*planparse.Task) ([]execlog.Gate, *outcome.Failure, error) {
	r := wv.r
	sel := wv.selected(tasks)
	if len(sel) == 0 {
		return nil, nil, nil
	}
	// On a terminal the integration gate (and its checkout's
	// worktree_setup) has a line of its own below the wave's
	// tasks, which wait to land, while it runs.
	defer r.out.PhaseEnd(gt.ID)
	// The combined tree is gated with what the user's work tree holds
	// that git does not, as each task's own gates were.
	_, unfurnish, err := r.keeper().Furnish(ctx, gt, dir, r.ignored)
	defer unfurnish()
	var f *outcome.Failure
	if errors.As(err, &f) {
		return nil, f, nil
	} else if err != nil {
		return nil, nil, err
	}
	out, err := r.keeper().GateRun().Run(ctx, gaterun.Spec{Task: gt, Dir: dir, Gates: sel, Begin: r.out.GateStart(gt.ID)})
	// A gate that deleted the user's ignored files through the
	// checkout's links gets them put back, as a task's gates do.
	unfurnish()
	r.ignored = aside.Check(r.repo, r.st.RunID, r.ignored, r.desk(), gt)
	if err == nil && errors.As(out.Failure, &f) {
		return nil, f, nil
	}
	return out.Gates, nil, err
}

// selected are the gates the combined tree of tasks is judged by: those
// any of them selected (its Gates: line, or every gate), as each was
// gated alone and as the serial path gates each on the tree of the tasks
// before it; a gate none of them selected judges none of their trees.
func (wv *wave) selected(tasks []*planparse.Task) []gates.Gate {
	var out []gates.Gate
	for _, g := range wv.r.Gates {
		for _, t := range tasks {
			if slices.ContainsFunc(gates.Select(wv.r.Gates, t.Gates, wv.last), func(s gates.Gate) bool { return s.Name == g.Name }) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// integrate lands the wave (wave.Landing) and records it in the run: the
// branch's tip and plan, the tasks done, and the tasks that failed or
// were left out; the run stops at the first task that failed, keeping
// its work tree.
func (wv *wave) integrate(ctx context.Context) error {
	r := wv.r
	l := wv.landing()
	ld, at, err := l.Run(ctx)
	if err != nil {
		return r.stopTask(ctx, at.T, err, wv.res)
	}
	// What the branch holds now is done: a signal from here on must not
	// record a landed task as stopped, nor leave the notes and the
	// wave's records half written. The run stops at the next wave (its
	// tasks start interrupted), or, after the last, completes as the
	// serial path does after its last commit.
	ctx = context.WithoutCancel(ctx)
	if tip := ld.Tip(); tip != "" {
		r.expect, r.pf.Src, r.dirty = tip, ld.Plan, nil
		for i, it := range ld.Tasks {
			wv.res.Done = append(wv.res.Done, it.T.ID)
			r.out.TaskDone(it.T, ld.Commits[i])
			land.NoteGates(ctx, r.repo, r.out, it.T, it.Log, ld.Commits[i], ld.Trees[i])
		}
		if err := wv.handBeside(ctx); err != nil {
			return r.stopTask(ctx, ld.Tasks[len(ld.Tasks)-1].T, err, wv.res)
		}
	}
	r.st.Wave, r.st.WaveBase, r.st.WaveDone, r.st.WaveNumber, r.st.WaveInTheWay = nil, "", nil, 0, nil
	first := l.Settle(ld)
	l.Finish(ctx)
	if first == nil {
		return nil
	}
	// The failed task's attempt is its own work tree's; in the user's it
	// starts from the commits integrated before it (see waveAttempt).
	if err := waveAttempt(ctx, r.books().stops(), r.log, first.T, r.expect); err != nil {
		return r.stopTask(ctx, first.T, err, wv.res)
	}
	r.log.Status, r.log.Finished = record.RunRunning, time.Time{}
	wv.res.Status, r.st.Failed = record.RunFailed, first.Fail.What
	err = r.books().stop(first.T, record.RunFailed, first.Fail.ForUser(), first.Fail.Tail, ErrTaskFailed, first.Fail.See...)
	wv.res.Next = r.log.NextStep
	return err
}

// handBeside finds what a person changed in the work tree while the wave
// ran, beside the files it landed (its landing stops at a change to one
// of them): theirs, as after a stop, so that the tasks after the wave
// commit of it only what belongs to them (runner.hand), and start with it
// recorded as there before them (runner.dirty). Edits a resume found
// before the wave are not found again.
func (wv *wave) handBeside(ctx context.Context) error {
	r := wv.r
	changes, err := r.repo.Status(ctx)
	if err != nil {
		return err
	}
	r.dirty = dirtyPaths(r.log, changes)
	if len(r.dirty) == 0 || !slices.ContainsFunc(r.dirty, func(p string) bool { return !slices.Contains(r.hand.Edited, p) }) {
		return nil
	}
	if err := r.findHand(ctx); err != nil {
		return err
	}
	r.hand.When = fmt.Sprintf("while wave %d ran", wv.number)
	return nil
}
