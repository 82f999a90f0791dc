package recovery

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/handconfig"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// TaskStatus is one task of a run as `planx status` reports it.
type TaskStatus struct {
	ID planparse.TaskID `json:"id"`
	// Label is the plan's own ID of the task (Kiro's 1.2) when it is not ID.
	Label  string            `json:"label,omitempty"`
	Title  string            `json:"title"`
	Status record.TaskStatus `json:"status"`
	Commit string            `json:"commit,omitempty"`
	Reason string            `json:"reason,omitempty"`
	// Work is the ref holding the work of a wave task done in its own work
	// tree and not yet integrated (status "awaiting integration").
	Work string `json:"work,omitempty"`
}

// StatusReport describes the run in progress, if any.
type StatusReport struct {
	InProgress bool             `json:"in_progress"`
	RunID      string           `json:"run_id,omitempty"`
	Plan       string           `json:"plan,omitempty"`
	Branch     string           `json:"branch,omitempty"`
	Base       string           `json:"rollback_commit,omitempty"`
	Status     record.RunStatus `json:"status,omitempty"`
	Current    string           `json:"current,omitempty"`
	Reason     string           `json:"reason,omitempty"`
	Tasks      []TaskStatus     `json:"tasks,omitempty"`
	Drift      []planfile.Drift `json:"drift,omitempty"`
	LockHolder string           `json:"lock_holder,omitempty"`
	// Config says that .planx.yaml no longer says what the run pinned, and
	// what that means for the run.
	Config string `json:"config,omitempty"`
	// Cost is what the run's agents reported so far (nil: nothing), and
	// Budget what the run may spend (nil: no budget).
	Cost   *record.Cost      `json:"cost,omitempty"`
	Budget *planparse.Budget `json:"budget,omitempty"`
	Next   string            `json:"next,omitempty"`
}

// Status reads the run state without changing anything. It returns the
// report and, when the run stopped on a failure or the plan drifted, an error
// wrapping record.ErrTaskFailed or record.ErrDrift for the exit code.
func Status(ctx context.Context, dir string) (*StatusReport, error) {
	repo, err := gitops.Open(ctx, cmp.Or(dir, "."))
	if err != nil {
		return nil, err
	}
	st, err := runstate.Load(repo)
	if err != nil || st == nil {
		return &StatusReport{Next: "no run in progress; start one with `planx run PLAN`"}, err
	}
	rep := &StatusReport{InProgress: true, RunID: st.RunID, Plan: st.PlanPath, Branch: st.Branch,
		Base: string(st.Base), Status: st.Status, Current: string(st.Current), Reason: st.Reason}
	li, live := runstate.Holder(repo)
	if live {
		rep.LockHolder = fmt.Sprintf("pid %d on %s since %s (%s)", li.PID, li.Host, li.Started.Format(time.RFC3339), li.Command)
	} else if st.Status == record.RunRunning || st.Status == record.RunStarting {
		rep.Status = record.RunInterrupted
		rep.Reason = "planx stopped without saying why (killed or crashed)"
	}
	pf, plan, err := runPlan(ctx, repo, st)
	if err != nil {
		return rep, err
	}
	h := &History{Commits: map[planparse.TaskID]gitops.Commit{}, Skipped: map[planparse.TaskID]bool{}}
	if head, err := repo.Head(ctx); err == nil && st.Base != "" {
		if h, err = ReadHistory(ctx, repo, st.RunID, st.Current, st.Base, head.SHA); err != nil {
			return rep, err
		}
	}
	rep.Config = configStatus(ctx, repo, st)
	rep.Cost, rep.Budget = spending(st)
	rep.Tasks = taskStatuses(st, plan, h, rep.Status)
	current := string(st.Current)
	if t := plan.Task(st.Current); t != nil {
		current = t.DisplayID()
	}
	waveStatuses(ctx, st, repo, rep.Tasks, rep.Status)
	rep.Drift = Drift(ctx, pf, repo, plan, st, h)
	if err := h.RewrittenError(); err != nil {
		rep.Next = "put planx's commits back (git reset --hard <planx's commit>) or `planx abort`"
		return rep, err
	}
	switch {
	case len(rep.Drift) > 0:
		rep.Next = "restore the plan's text, or `planx resume --accept-drift`"
		return rep, fmt.Errorf("%w: %d difference(s) between %s and the run", record.ErrDrift, len(rep.Drift), st.PlanPath)
	case live:
		rep.Next = "a planx process is working on it"
	case len(st.Wave) > 0:
		// Stopped inside a wave: resume takes the wave as a whole (the
		// done tasks integrated, the others run again), and there is no
		// one task's attempt in the work tree to commit as it stands or
		// to skip; say what the run said when it stopped.
		rep.Next = wavepkg.Next(true, st.WaveInTheWay, repo, st.RunID, st.Current) + "; or `planx abort` undoes the run"
		return rep, stoppedf("run %s stopped inside a parallel wave (%s)", st.RunID, rep.Status)
	case st.Base == "":
		// Stopped while it made its rollback commit: no task began.
		if !live {
			rep.Reason = "planx stopped (interrupted, killed or crashed) before its rollback commit"
		}
		rep.Next = NotStartedNext
		return rep, stoppedf("run %s stopped before its rollback commit (%s)", st.RunID, rep.Status)
	case rep.Status == record.RunWaiting:
		rep.Next = statusNext(st, repo, plan, rep.Status)
	default:
		rep.Next = statusNext(st, repo, plan, rep.Status)
		return rep, stoppedf("run %s stopped at %s (%s)", st.RunID, current, rep.Status)
	}
	return rep, nil
}

// runPlan reads the plan of the run st as the run reads it: in its
// format, its tasks checked against the gates it pinned (today's, for a
// run that pinned none). Status reads it with the run's judge, not today's
// .planx.yaml: it says what the run will do.
func runPlan(ctx context.Context, repo *gitops.Repo, st *runstate.State) (*planfile.File, *planparse.Plan, error) {
	abs := fsutil.Under(repo.Root, st.PlanPath)
	plan, err := planfile.Read(abs, st.PlanPath, planparse.Format(st.Options.Format))
	if err != nil {
		return nil, nil, err
	}
	if st.Pinned == nil {
		_, err = runstate.PinNow(ctx, repo, repo.Root, plan, st.Options.FlagGates)
	} else {
		err = gates.CheckTasks(st.Pinned.Gates, plan)
	}
	if err != nil {
		return nil, nil, err
	}
	return planfile.New(abs, st.PlanPath, plan), plan, nil
}

// statusNext is what status says to do at the stopped run st: what the run
// said when it stopped (next.go), or, for a task the plan no longer has, the
// commands without what they would do to it.
func statusNext(st *runstate.State, repo *gitops.Repo, plan *planparse.Plan, status record.RunStatus) string {
	if st.Log != nil && st.Log.NextStep != "" && st.Status == status {
		return st.Log.NextStep
	}
	if t := planTask(plan, st.Current); t != nil {
		if next := WaveNext(st, repo, t); next != "" {
			return next
		}
		return StoppedNext(st, status, t)
	}
	if status == record.RunWaiting {
		return fmt.Sprintf("do %s by hand, then `planx resume`", st.Current)
	}
	return "`planx resume`, `planx resume --retry`, `planx skip` or `planx abort`"
}

// taskStatuses is each task of plan as the run st sees it: done (h, its
// commits), rewritten, skipped, where it stopped, or pending.
func taskStatuses(st *runstate.State, plan *planparse.Plan, h *History, runStatus record.RunStatus) []TaskStatus {
	want, skipped := idSet(st.ToRun), idSet(st.Skipped)
	var out []TaskStatus
	for _, t := range plan.Order() {
		ts := TaskStatus{ID: t.ID, Title: t.Title, Status: record.TaskPending}
		ts.Label = t.OwnLabel()
		switch c, ok := h.Commits[t.ID]; {
		case ok:
			ts.Status, ts.Commit = record.TaskDone, string(c.SHA)
		case h.rewritten[t.ID].Found != "":
			w := h.rewritten[t.ID]
			ts.Status, ts.Commit, ts.Reason = record.TaskRewritten, string(w.Found), w.String(t.ID)
		case skipped[t.ID] || h.Skipped[t.ID]:
			ts.Status = record.TaskSkipped
		case t.ID == st.Current:
			ts.Status, ts.Reason = record.TaskStatus(runStatus), st.Reason
		case !want[t.ID]:
			ts.Status = record.TaskNotInRun
			if t.Status == planparse.StatusDone {
				ts.Status = record.TaskDoneBeforeRun
			}
		}
		out = append(out, ts)
	}
	return out
}

// waveStatuses corrects ts for a run stopped inside a parallel wave: a task
// whose work is done in its work tree is awaiting integration, not pending
// (nor the run's stop, which st.Current, the wave's first task, carries);
// the wave's other tasks stopped with the run.
func waveStatuses(ctx context.Context, st *runstate.State, repo *gitops.Repo, ts []TaskStatus, runStatus record.RunStatus) {
	for i := range ts {
		t := &ts[i]
		if !slices.Contains(st.Wave, t.ID) || t.Status == record.TaskDone || t.Status == record.TaskRewritten {
			continue
		}
		t.Status, t.Reason = record.TaskStatus(runStatus), st.Reason
		if !slices.Contains(st.WaveDone, t.ID) {
			continue
		}
		ref := wavepkg.WorkRef(st.RunID, t.ID)
		sha, err := repo.Refs().Resolve(ctx, ref)
		if err != nil || sha == "" {
			continue // its work was not kept after all: resume runs it again
		}
		t.Status, t.Work = record.TaskAwaitingIntegration, ref
		t.Reason = fmt.Sprintf("done in its own work tree, not yet committed: its work is %s (%s); `planx resume` integrates it without running it again", ref, sha.Short())
	}
}

// configStatus is handconfig.Notice for a run status reads without changing it.
func configStatus(ctx context.Context, repo *gitops.Repo, st *runstate.State) string {
	hand := false
	if head, err := repo.Head(ctx); err == nil {
		hand, _ = handconfig.EditedSinceStop(ctx, repo, st, head.SHA) // unreadable: not said to be a hand edit
	}
	if handconfig.Holds(repo.Root, st) {
		hand = true
	}
	return handconfig.Notice(repo.Root, st.Pinned, hand)
}

// planTask is the plan's task id, or nil (also without a plan).
func planTask(plan *planparse.Plan, id planparse.TaskID) *planparse.Task {
	if plan == nil {
		return nil
	}
	return plan.Task(id)
}

// spending is what the run's agents reported so far and the run's pinned
// budget, each nil when there is none.
func spending(st *runstate.State) (*record.Cost, *planparse.Budget) {
	var cost *record.Cost
	if st.Log != nil {
		var sum record.Cost
		for _, t := range st.Log.Tasks {
			sum = sum.Add(t.Cost)
		}
		if !sum.IsZero() {
			cost = &sum
		}
	}
	if st.Pinned == nil || st.Pinned.Budget.IsZero() {
		return cost, nil
	}
	b := st.Pinned.Budget
	return cost, &b
}

// runStopped is status's error for a run that stopped: exit code 3, as a
// failed task's (record.ErrTaskFailed), in words that do not call an
// interrupt or a wait at a manual task a failure.
type runStopped string

func (e runStopped) Error() string { return string(e) }
func (e runStopped) Unwrap() error { return record.ErrTaskFailed }

func stoppedf(format string, args ...any) error { return runStopped(fmt.Sprintf(format, args...)) }
