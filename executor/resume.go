package executor

import (
	"context"
	"fmt"
	"io"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// ResumeOptions configure `planx resume`.
type ResumeOptions struct {
	Dir      string
	Out      io.Writer
	Terminal bool
	Color    bool
}

// Resume continues a stopped run. What is done is read from git: task
// commits of this run on the branch since its rollback commit. If the stopped
// task's changes are in the tree (a manual task done, a failure fixed by
// hand) they are verified, gated and committed; otherwise the task runs again.
func Resume(ctx context.Context, ro ResumeOptions) (*Result, error) {
	repo, err := gitops.Open(ctx, firstNonEmpty(ro.Dir, "."))
	if err != nil {
		return nil, err
	}
	lk, err := acquireLock(repo, "resume")
	if err != nil {
		return nil, err
	}
	defer lk.release()
	st, err := LoadState(repo)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, fmt.Errorf("%w: no stopped run to resume; start one with `planx run PLAN`", gitops.ErrRepoState)
	}
	o := Options{
		PlanPath: relJoin(repo.Root, st.PlanPath), Dir: repo.Root, Format: planparse.Format(st.Options.Format),
		All: st.Options.All, NoVerify: st.Options.NoVerify, StepTimeout: st.Options.StepTimeout,
		TaskTimeout: st.Options.TaskTimeout, Gates: st.Options.FlagGates,
		Out: ro.Out, Terminal: ro.Terminal, Color: ro.Color,
	}
	r, err := prepare(ctx, o)
	if err != nil {
		return nil, err
	}
	r.st, r.log = st, st.Log
	head, err := repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	if head.Branch != st.Branch {
		return nil, fmt.Errorf("%w: the run was on branch %q but HEAD is on %q; switch back (git switch %s) to resume",
			gitops.ErrRepoState, st.Branch, head.Branch, st.Branch)
	}
	if ok, err := repo.IsAncestor(ctx, st.Base, head.SHA); err != nil || !ok {
		return nil, fmt.Errorf("%w: the run's rollback commit %s is no longer an ancestor of HEAD; the history was rewritten", gitops.ErrRepoState, st.Base.Short())
	}
	done, err := doneTasks(ctx, repo, st, head.SHA)
	if err != nil {
		return nil, err
	}
	tasks := r.pending(done)
	if len(tasks) == 0 {
		if err := clearState(repo); err != nil {
			return nil, err
		}
		fmt.Fprintln(r.o.Out, "planx: nothing left to do; the run is complete")
		return &Result{RunID: st.RunID, Status: StateCompleted}, nil
	}
	resumeFirst := false
	if tasks[0].ID == st.Current {
		changes, err := repo.Status(ctx)
		if err != nil {
			return nil, err
		}
		for _, c := range changes {
			if c.Path != r.log.Path && c.Path != r.planRel {
				resumeFirst = true
				break
			}
		}
		// A manual task is never executed by planx: the person's work, or the
		// lack of it, is what gets verified.
		if r.executorFor(tasks[0]) == "manual" {
			resumeFirst = true
		}
	}
	fmt.Fprintf(r.o.Out, "planx: resuming run %s of %s at %s (%d task(s) left)\n", st.RunID, st.PlanPath, tasks[0].ID, len(tasks))
	return r.loop(ctx, tasks, resumeFirst)
}

// doneTasks reads from history the tasks this run has committed.
func doneTasks(ctx context.Context, repo *gitops.Repo, st *State, head gitops.SHA) (map[planparse.TaskID]bool, error) {
	commits, err := repo.Log(ctx, head, st.Base, 0)
	if err != nil {
		return nil, fmt.Errorf("read run history: %w", err)
	}
	done := map[planparse.TaskID]bool{}
	for _, c := range commits {
		var run, task string
		for _, tr := range c.Trailers {
			switch tr.Key {
			case TrailerRun:
				run = tr.Value
			case TrailerTask:
				task = tr.Value
			}
		}
		if run == st.RunID && task != "" {
			done[planparse.TaskID(task)] = true
		}
	}
	return done, nil
}
