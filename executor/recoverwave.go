package executor

import (
	"context"
	"slices"

	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstate"
	wavepkg "github.com/planx-dev/planx/wave"
)

// resumeWave goes on with a run stopped (killed, interrupted) inside a
// parallel wave: tasks whose work was done in their work trees are
// integrated as they are, not run again; the others run again in fresh work
// trees; then the run goes on with the tasks after the wave.
func (r *runner) resumeWave(ctx context.Context, tasks []*planparse.Task) (*Result, error) {
	var inWave, rest []*planparse.Task
	for _, t := range tasks {
		if slices.Contains(r.st.Wave, t.ID) {
			inWave = append(inWave, t)
		} else {
			rest = append(rest, t)
		}
	}
	r.o.Jobs = max(r.o.Jobs, 2)
	if len(inWave) == 0 {
		// The wave landed before the stop.
		r.st.Wave, r.st.WaveBase, r.st.WaveDone, r.st.WaveNumber = nil, "", nil, 0
		return r.loopWaves(ctx, rest, nil)
	}
	r.out.Println("planx: resuming run %s of %s in a parallel wave (%s left)", r.st.RunID, r.st.PlanPath, textsafe.Count(len(tasks), "task"))
	n := len(r.st.ToRun) - len(tasks)
	wv := &wave{r: r}
	wv.isolate(inWave)
	for _, it := range wv.its {
		n++
		r.out.TaskStart(n, len(r.st.ToRun), it.T)
		if !slices.Contains(r.st.WaveDone, it.T.ID) {
			continue
		}
		sha, err := r.repo.Refs().Resolve(ctx, wavepkg.WorkRef(r.st.RunID, it.T.ID))
		if err != nil || sha == "" {
			continue // no work kept after all: run it again
		}
		it.Work = sha
		// The log entry as the task left it (isolate counted a new attempt).
		it.Own.Attempts--
		it.Own.Status = record.TaskRunning
		r.out.Println("      %s's work, done before the stop, is integrated as it is (%s)", it.T.ID, sha.Short())
	}
	base := r.expect
	r.st.Status, r.st.Current, r.st.Reason, r.st.Phase = record.RunRunning, inWave[0].ID, "", runstate.PhaseExecute
	r.st.Wave, r.st.WaveBase = waveIDs(inWave), base
	if err := r.waveAttempt(ctx, inWave[0]); err != nil {
		return nil, err
	}
	if err := r.st.Save(r.repo); err != nil {
		return nil, err
	}
	res := &Result{RunID: r.st.RunID, LogPath: r.log.Path, Base: string(r.st.Base)}
	wv.base, wv.number, wv.last, wv.res = base, r.st.WaveNumber, len(rest) == 0, res
	wv.exec(ctx)
	if err := wv.integrate(ctx); err != nil {
		return res, err
	}
	return r.loopWaves(ctx, rest, res)
}
