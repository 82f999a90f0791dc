package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/ledger"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/verify"
)

// commit ticks the task in the plan, writes the log and makes the task's one
// commit, its message carrying the executor's folded commits and the
// task's warnings. When a hook refuses the commit the tick is undone, so the
// plan never claims a task git does not have.
func (r *runner) commit(ctx context.Context, t *planparse.Task, lt *execlog.Task, last bool, folded, warnings []string) (gitops.SHA, error) {
	if err := r.onRunBranch(t); err != nil {
		return "", err
	}
	before := r.pf.Src
	var tree *gitops.TreeJob
	if !r.porcelain && !last {
		// The index is final: git writes it as a tree while planx ticks
		// the plan and writes the log, which are spliced in afterwards.
		tree = r.repo.StartWriteTree(ctx)
		defer func() { _, _ = tree.Wait() }()
	}
	groups, reopen, ticked, err := r.tickAndLog(t, lt, last)
	if err != nil {
		return "", err
	}
	undo := func() {
		lt.Status = record.TaskFailed
		reopen()
		if last {
			r.log.Status, r.log.Finished = record.RunRunning, time.Time{}
		}
		if r.pf.Untick(before) {
			r.out.Warn(t.ID, "the plan changed while the task was committed; its checkbox was left as it is: untick it by hand if the task is not done")
		}
	}
	// The task's work is staged since verify (and again after the gates);
	// only planx's own two files changed since.
	msg := ledger.TaskMessage(ledger.TaskCommit{PlanRel: r.planRel, RunID: r.st.RunID, Task: t, Log: lt, Groups: groups,
		Folded: folded, Warnings: warnings, Skipped: r.st.SkipPending, Ticked: ticked})
	r.book().RecordPending(t, r.expect)
	own := []string{r.planRel, r.log.Path}
	if last && !r.porcelain {
		// The run ends here: leave the index as git commit would.
		if err := r.repo.Index().StageFiles(ctx, own...); err != nil {
			undo()
			return "", fmt.Errorf("commit %s: %w", t.ID, err)
		}
	}
	sha, hookWatch, err := r.writeCommit(ctx, lt, msg, own, last, tree)
	if hookWatch != nil {
		if msg := r.reaper.AfterHooks(err); msg != "" {
			r.warnIssue(t, msg)
		}
	}
	if err != nil {
		// git stopped (a signal) after the commit was made, e.g. in a
		// post-commit hook: the commit exists, so the task is done and its
		// tick stays.
		if made, ok := r.landed(t); ok {
			sha, err = made, nil
		}
	}
	if err != nil {
		undo()
		return "", commitError(t, err)
	}
	r.committed(ctx, t, lt, sha, groups, hookWatch)
	return sha, nil
}

// tickAndLog ticks the task and the groups it completes in the plan, marks
// it done (and the run completed when it is the last) and writes the
// execution log, all before the commit that records them. reopen undoes
// the log's resolution of the task's issues should the commit fail; ticked
// says whether any box was ticked.
func (r *runner) tickAndLog(t *planparse.Task, lt *execlog.Task, last bool) (groups []*planparse.Task, reopen func(), ticked bool, err error) {
	if ticked, err = r.pf.Tick(t); err != nil {
		return nil, nil, false, err
	}
	groups = r.completedGroups(t)
	for _, g := range groups {
		ok, err := r.pf.Tick(g)
		if err != nil {
			return nil, nil, false, err
		}
		ticked = ticked || ok
	}
	now := r.o.now()
	lt.Status, lt.Finished, lt.Commit = record.TaskDone, now, ""
	if last {
		r.log.Status, r.log.Finished = record.RunCompleted, now
	}
	reopen = r.log.Resolve(string(t.ID), fmt.Sprintf("fixed: verified, gated and committed (attempt %d)", lt.Attempts))
	r.fault.At("after-tick")
	if err := r.log.Write(r.repo.Root, r.repo.Config().Durable()); err != nil {
		return nil, nil, false, fmt.Errorf("write execution log: %w", err)
	}
	r.fault.At("after-log")
	return groups, reopen, ticked, nil
}

// writeCommit makes the task's commit the way this run commits: with git
// commit and its hooks (porcelain), or from the index planx built, with
// the tree git is writing meanwhile when there is one. hookWatch is the
// commit's files as they were before the hooks ran, for
// hookLeftovers; nil when no hooks run.
func (r *runner) writeCommit(ctx context.Context, lt *execlog.Task, msg string, own []string, last bool, tree *gitops.TreeJob) (sha gitops.SHA, hookWatch verify.CommitFiles, err error) {
	switch {
	case r.porcelain:
		if r.hooks {
			hookWatch = verify.SnapshotCommit(r.repo.Root, lt.Files, []string{r.planRel, r.log.Path})
		}
		r.fault.At("after-stage")
		disarm := r.fault.Soon("during-commit", 50*time.Millisecond)
		sha, err = r.repo.Commit(ctx, msg, gitops.CommitOptions{NoVerify: r.o.NoVerify, Started: r.pids().GitStarted,
			Include: own, Parent: r.expect})
		disarm()
		r.pids().GitDone()
	case last:
		// commit staged planx's own files already.
		r.fault.At("after-stage")
		sha, err = r.repo.CommitIndex(ctx, msg, r.expect, "HEAD")
	default:
		r.fault.At("after-stage")
		sha, err = r.repo.CommitIndexWith(ctx, msg, r.expect, "HEAD", own, tree)
	}
	return sha, hookWatch, err
}

// commitError says why the task's commit was not made: a refusing hook is
// the task's failure (its output is the tail the user needs), anything
// else an error of planx's.
func commitError(t *planparse.Task, err error) error {
	var hook *gitops.HookError
	if errors.As(err, &hook) {
		return &outcome.Failure{What: fmt.Sprintf("the %s hook refused the commit (use --no-verify to skip pre-commit and commit-msg)", firstNonEmpty(hook.Hook, "commit")), Tail: hook.Output}
	}
	return fmt.Errorf("commit %s: %w", t.ID, err)
}

// committed records in the run what the task's commit sha made true: the
// task and the groups it completed are done, the pending skip and dirty
// files are settled, and the commit gets its record and gate notes.
func (r *runner) committed(ctx context.Context, t *planparse.Task, lt *execlog.Task, sha gitops.SHA, groups []*planparse.Task, hookWatch verify.CommitFiles) {
	r.fault.At("after-commit")
	lt.Commit = string(sha)
	r.expect = sha
	r.reports().Committed(sha)
	if r.done == nil {
		r.done = map[planparse.TaskID]bool{}
	}
	r.done[t.ID] = true
	for _, g := range groups {
		r.done[g.ID] = true
		r.out.Println("planx: %s %s done: its last sub-task committed", textsafe.Line(g.DisplayID()), textsafe.Line(textsafe.Shorten(g.Title, 60)))
	}
	r.st.SkipPending = nil
	r.dirty = nil
	if hookWatch != nil {
		r.hookLeftovers(t, hookWatch.HookLeftovers(ctx, r.repo))
	}
	// The commit exists: its record and note are attached even when a
	// signal came meanwhile (git notes runs no hook; it is bounded all the
	// same).
	noteCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	r.noteGates(noteCtx, t, lt, sha, r.book().RecordCommit(noteCtx, t, lt, sha))
	cancel()
	// No state write here: git now says the task is done, and the next
	// task's start (or the run's end) saves the state anyway.
	r.st.Current, r.st.Phase = "", ""
	r.fault.At("after-commit-state")
}

// noteMax bounds one gate's output in the git note: notes travel with every
// fetch of refs/notes/planx, so a runaway log must not become a huge blob.
const noteMax = 1 << 20

// noteGates attaches the whole output of the task's gates to its commit as a
// git note (refs/notes/planx), so it can travel with the history. The commit
// exists already: a failure here is only a warning.
func (r *runner) noteGates(ctx context.Context, t *planparse.Task, lt *execlog.Task, sha, tree gitops.SHA) {
	if len(lt.Gates) == 0 {
		return
	}
	var gs []record.GateOutput
	for _, g := range lt.Gates {
		o := record.GateOutput{Name: g.Name, Command: g.Command, Passed: g.Passed, ExitCode: g.ExitCode,
			Duration: g.Duration, TimedOut: g.TimedOut, Output: g.Tail}
		if out, whole, err := execute.ReadCapped(g.OutputPath, noteMax); err == nil {
			o.Output, o.Whole = out, whole
		}
		gs = append(gs, o)
	}
	if err := r.repo.Notes().Add(ctx, record.NoteRef, sha, record.NoteFor(record.NoteMeta{Task: string(t.ID), Commit: string(sha), Tree: string(tree)}, gs)); err != nil {
		r.out.Warn(t.ID, "could not attach the gate output note: "+err.Error())
	}
}

// hookLeftovers reports the files of the commit that a commit hook
// rewrote and left out of it (verify.CommitFiles.HookLeftovers): they are
// the next task's dirty files, and the log says why.
func (r *runner) hookLeftovers(t *planparse.Task, left []string) {
	if len(left) == 0 {
		return
	}
	r.dirty = left
	shown := left
	if len(shown) > 3 {
		shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(left)-3))
	}
	msg := fmt.Sprintf("a commit hook changed %d file(s) that are not in the commit: %s", len(left), strings.Join(shown, ", "))
	r.log.Issues = append(r.log.Issues, execlog.Issue{Task: string(t.ID), What: msg, Time: r.o.now()})
	r.out.Warn(t.ID, msg)
	// The tree is dirty anyway; the log on disk must say why.
	_ = r.log.WriteFile(r.repo.Root)
}
