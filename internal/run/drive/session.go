package drive

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/admit"
	"github.com/planx-dev/planx/internal/run/aside"
	"github.com/planx-dev/planx/internal/run/recovery"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/planparse"
)

// ResumeOptions configure `planx resume` and `planx skip`.
type ResumeOptions struct {
	Dir         string
	Retry       bool // discard the stopped attempt and execute the task again
	AcceptDrift bool // go on although committed tasks changed in the plan
	NoCache     bool // run every gate even when it passed on the same tree before
	// Repin takes the gates and settings from .planx.yaml as the person
	// edited it while the run was stopped (resume only; repin.go).
	Repin bool
	// HandOff stops at the next parallel wave (Options.HandOff).
	HandOff bool
	// Landing lands a handed-off wave: its tasks without work fail, none
	// runs here (planx ci land).
	Landing bool
	progress.Output
}

// reopen loads a stopped run: state, plan, gates, and what git has of it.
// The caller holds the lock.
func reopen(ctx context.Context, repo *gitops.Repo, ro ResumeOptions) (_ *runner, _ *recovery.History, err error) {
	st, err := runstate.Load(repo)
	if err != nil {
		return nil, nil, err
	}
	if st == nil {
		return nil, nil, recovery.ErrNoRun
	}
	o := Options{
		PlanPath: fsutil.Under(repo.Root, st.PlanPath), Dir: repo.Root, Format: planparse.Format(st.Options.Format),
		All: st.Options.All, NoVerify: st.Options.NoVerify, StepTimeout: st.Options.StepTimeout,
		TaskTimeout: st.Options.TaskTimeout, Gates: st.Options.FlagGates,
		Agent: st.Options.Agent, Attempts: st.Options.Attempts, StrictFiles: st.Options.StrictFiles,
		Optional: st.Options.Optional, Topic: st.Options.Topic,
		NoCache: ro.NoCache, GatesIn: st.Options.GatesIn, Jobs: st.Options.Jobs,
		Output: ro.Output, HandOff: ro.HandOff,
	}
	p, err := admit.Prepare(ctx, o, st.Pinned)
	if err != nil {
		return nil, nil, err
	}
	r := newRunner(p)
	r.landing = ro.Landing
	r.arm()
	defer func() {
		if err != nil {
			r.jail.Settle()
		}
	}()
	if err := r.findHidden(ctx); err != nil {
		return nil, nil, err
	}
	r.st, r.log = st, st.Log
	if err := recovery.CleanRun(ctx, repo, st, r.out); err != nil {
		return nil, nil, err
	}
	recovery.WarnHeldPlan(repo, st, r.out)
	r.ignored = aside.Note(ctx, r.repo, r.survey, r.ignored)
	if st.Status != record.RunRunning {
		// After a recorded stop each task's changes to the user's ignored
		// files were put back: what differs from planx's copy now is the
		// person's (a fixed local.env), to keep, never to put back. Found
		// running (a crash), it may be the killed task's: the next check
		// puts it back.
		aside.Keep(r.repo, r.ignored, r.Config.KeepIgnored, r.desk())
	}
	adopt := func(ctx context.Context, head gitops.Head) error {
		r.head = head // the rollback commit, if made now, is made on it
		return r.rollbackOf().Adopt(ctx, head.SHA)
	}
	if r.head, err = checkHead(ctx, r.repo, r.st, adopt); err != nil {
		return nil, nil, err
	}
	r.expect = r.head.SHA
	h, err := recovery.ReadHistory(ctx, repo, st.RunID, st.Current, st.Base, r.head.SHA)
	if err != nil {
		return nil, nil, err
	}
	// Which groups a commit completes depends on what git has done.
	if r.done, _, err = r.pf.Done(ctx, r.repo, r.Plan); err != nil {
		return nil, nil, err
	}
	// Commits a crash kept planx from recording are git's word: take it.
	for id, c := range h.Commits {
		if lt := r.log.TaskByID(string(id)); lt != nil && lt.Status != record.TaskDone {
			lt.Status, lt.Commit, lt.Failure = record.TaskDone, string(c.SHA), ""
		}
	}
	r.st.SkipPending = nil
	for _, id := range r.st.Skipped {
		if !h.Skipped[id] {
			r.st.SkipPending = append(r.st.SkipPending, id)
		}
	}
	return r, h, nil
}

// checkHead checks HEAD is still on the run st's branch, above its
// rollback commit (adopting one a crash kept planx from recording, through
// adopt), and returns it.
func checkHead(ctx context.Context, repo *gitops.Repo, st *runstate.State, adopt func(context.Context, gitops.Head) error) (gitops.Head, error) {
	head, err := repo.Head(ctx)
	if err != nil {
		return head, err
	}
	if head.Branch != st.Branch {
		return head, fmt.Errorf("%w: the run was on branch %q but HEAD is on %q; %s",
			gitops.ErrRepoState, st.Branch, verify.HeadName(head), verify.SwitchBack(st.Branch, "run the command again"))
	}
	if st.Base == "" {
		if err := adopt(ctx, head); err != nil {
			return head, err
		}
		if head, err = repo.Head(ctx); err != nil {
			return head, err
		}
	}
	ok, err := repo.History().IsAncestor(ctx, st.Base, head.SHA)
	if err != nil {
		return head, fmt.Errorf("check rollback commit %s is below HEAD: %w", st.Base.Short(), err)
	}
	if !ok {
		return head, fmt.Errorf("%w: the run's rollback commit %s is no longer an ancestor of HEAD; the history was rewritten",
			gitops.ErrRepoState, st.Base.Short())
	}
	return head, nil
}
