package recovery

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// The next steps at a stop. Each one says what the command it names does,
// as ReuseAttempt (resumewhat.go) decides it: after a failure, `planx resume`
// verifies, gates and commits the task's work as it stands and runs no step
// again (the person's fix is the rest of the task; of their edits, those
// verify.Belongs gives the task); after an interrupt in
// the middle of a step the output is partial, so it runs the task again;
// `--retry` always runs it again. The run's output, `planx status` and the
// execution log say the same (one text, here), and hint_*.txtar run the
// command each one names.

// NotStartedNext is what to do after a run stopped before its rollback
// commit: nothing of it is committed, so resume starts it; the rollback
// commit then takes the uncommitted work as it is at the resume, a
// person's edits since the stop included (they are work from before the
// run, which abort puts back).
const NotStartedNext = "`planx resume` starts it (its rollback commit takes your uncommitted work as it is then, edits you make now included), `planx abort` drops it"

// StoppedNext is what to do after t stopped in the run st with status
// (failed, interrupted or waiting; a crash reads as interrupted), outside a
// parallel wave.
func StoppedNext(st *runstate.State, status record.RunStatus, t *planparse.Task) string {
	id := t.DisplayID()
	const others = "`planx skip` drops its work and goes on with the next task, `planx abort` undoes the run"
	if status == record.RunWaiting {
		return fmt.Sprintf("do %s by hand, then `planx resume` verifies, gates and commits what you did", id)
	}
	again := fmt.Sprintf("`planx resume --retry` runs %s again from the start", id)
	if status == record.RunInterrupted {
		if st.Phase == runstate.PhaseExecute && st.AttemptSpace != "" && st.AttemptStop == "" && st.AttemptPre != "" {
			// planx died while the steps ran in their task space: their
			// writes are there, not in the work tree (RecoverSpace).
			return fmt.Sprintf("%s stopped without a word (killed or crashed) while its steps ran in a task space: what they wrote never reached the work tree "+
				"(the next command keeps it under a ref and says how to get it back); `planx resume` runs %s again from the start, "+
				"your edits in the work tree kept as yours; %s", id, id, others)
		}
		if st.Phase == runstate.PhaseExecute {
			return fmt.Sprintf("what %s wrote before the interrupt is left in the work tree; `planx resume` runs %s again from the start over it "+
				"(a file you change first makes it refuse: then %s keeping your change); %s", id, id, "`planx resume --retry` runs it again", others)
		}
		return fmt.Sprintf("%s had run when the interrupt came; `planx resume` verifies, gates and commits its work as it stands; %s; %s", id, again, others)
	}
	commits := "`planx resume` verifies, gates and commits its work as it stands (your edits of its files included; `git add` a file of yours it neither wrote nor declares to include it), without running the task again"
	if step, n, exit, ok := FailedStep(st.Log, t); ok && st.Phase == runstate.PhaseExecute {
		left := "it was the last"
		if step < n {
			left = fmt.Sprintf("%s did not run", stepRange(step+1, n))
		}
		return fmt.Sprintf("%s stopped at step %d of %d (%s, %s) and its changes are left in the work tree; fix the cause and finish the task by hand, then %s; or %s; %s",
			id, step, n, exit, left, commits, again, others)
	}
	return fmt.Sprintf("the changes of %s are left in the work tree; fix the cause, then %s; or %s; %s", id, commits, again, others)
}

// DriftNext is what to do when the plan changed during the run before t:
// nothing of t ran, and resume runs the plan as it then stands (executor's pin.go).
func DriftNext(t *planparse.Task) string {
	return fmt.Sprintf("look at the change, then `planx resume` runs the plan as it now stands, from %s; or `planx abort` undoes the run", t.DisplayID())
}

// stepRange names steps from..to.
func stepRange(from, to int) string {
	if from == to {
		return "step " + strconv.Itoa(from)
	}
	return fmt.Sprintf("steps %d to %d", from, to)
}

// FailedStep is the step of t whose failure stopped its last attempt, as
// the log recorded it (execute.Steps names them "step i/n"): its number, the
// task's count of steps and how it failed ("exit 1", "timed out").
func FailedStep(l *execlog.Log, t *planparse.Task) (step, n int, how string, ok bool) {
	if l == nil || len(t.Steps) == 0 {
		return 0, 0, "", false
	}
	lt := l.TaskByID(string(t.ID))
	if lt == nil || len(lt.Commands) == 0 {
		return 0, 0, "", false
	}
	c := lt.Commands[len(lt.Commands)-1]
	num, _, found := strings.Cut(strings.TrimPrefix(c.Name, "step "), "/")
	step, err := strconv.Atoi(num)
	if !found || err != nil || (c.ExitCode == 0 && !c.TimedOut) {
		return 0, 0, "", false
	}
	how = fmt.Sprintf("exit %d", c.ExitCode)
	if c.TimedOut {
		how = "timed out"
	}
	return step, len(t.Steps), how, true
}

// WaveNext is what to do after a stop in or after a parallel wave of the
// run st in repo (either nil before they are known), or "".
func WaveNext(st *runstate.State, repo *gitops.Repo, t *planparse.Task) string {
	if st == nil {
		return ""
	}
	return wavepkg.Next(len(st.Wave) > 0, st.WaveInTheWay, repo, st.RunID, t.ID)
}
