package drive

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/rewind"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// ErrNotInWave reports a task that is not one of the handed-off wave's.
var ErrNotInWave = errors.New("not a task of the wave in flight")

// RunTask runs one task of a wave handed off to CI jobs (Options.HandOff)
// the way the wave runs each of its tasks locally: a wave of one, its
// Flight, in a slot of this clone (wave.Isolated through the runner's
// Turn: execute, verify, the judge's checks, the gates). Its work is kept
// under its work ref and its log entry in the run's state, as a task done
// before a crash is; nothing lands: the wave's landing job integrates it
// with the others (Resume with Landing). A task that fails returns
// ErrTaskFailed, its entry saying why.
func RunTask(ctx context.Context, ro ResumeOptions, id planparse.TaskID) (*Result, error) {
	r, tasks, unlock, err := openStopped(ctx, ro, "ci task")
	if err != nil {
		return nil, err
	}
	defer unlock()
	i := slices.IndexFunc(tasks, func(t *planparse.Task) bool { return t.ID == id })
	if !slices.Contains(r.st.Wave, id) || i < 0 {
		return nil, fmt.Errorf("%w: %s (wave %d: %v)", ErrNotInWave, id, r.st.WaveNumber, r.st.Wave)
	}
	if r.expect != r.st.WaveBase {
		return nil, fmt.Errorf("%w: the branch is at %s, the wave's base is %s: check out the run's branch as the hand-off left it",
			ErrRunInProgress, r.expect.Short(), r.st.WaveBase.Short())
	}
	res := &Result{RunID: r.st.RunID, LogPath: r.log.Path, Base: string(r.st.Base), Status: record.RunRunning}
	if slices.Contains(r.st.WaveDone, id) {
		return res, nil // done by an earlier attempt of this job
	}
	t := tasks[i]
	wv := (&waveLoop{r: r, res: res}).newWave(r.expect, r.st.WaveNumber, false)
	// Its entry as the hand-off counted the attempt: not counted again.
	it := wavepkg.NewTask(t, r.books().logTask(t), wavepkg.Dir(r.repo, r.st.RunID, string(t.ID)))
	wv.its = []*wavepkg.Task{it}
	r.out.TaskStart(1, 1, t)
	wv.exec(ctx)
	switch {
	case it.Err != nil:
		return res, it.Err
	case it.Fail != nil:
		it.Log.Status, it.Log.Failure = record.TaskFailed, it.Fail.ForUser()
		if err := r.st.Save(r.repo); err != nil {
			return res, err
		}
		// The slot it failed in is this runner's, gone with the job: what
		// it held is kept under the run's worktrees/<task> ref, which the
		// job publishes, as a local resume keeps it before running the
		// task again.
		if err := wavepkg.KeepFailed(ctx, r.repo, r.st.RunID, string(t.ID), rewind.SlotKeeper(r.repo, r.st), r.out); err != nil {
			return res, err
		}
		res.Status = record.RunFailed
		return res, fmt.Errorf("%w: %s: %s", ErrTaskFailed, t.ID, it.Fail.ForUser())
	}
	if err := r.st.Save(r.repo); err != nil {
		return res, err
	}
	res.Done = []planparse.TaskID{t.ID}
	r.out.TaskDone(t, it.Work)
	return res, nil
}
