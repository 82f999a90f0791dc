package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/verify"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// committer makes a task's one commit: it ticks the plan, writes the log,
// commits the way the run commits (commitPath) and records what the commit
// made true. It is what of the run a commit needs, taken from the runner
// for one commit; the runner reads expect, done and dirty back.
type committer struct {
	repo    *gitops.Repo
	st      *runstate.State
	log     *execlog.Log
	pf      *planfile.File
	planRel string
	path    commitPath
	// noVerify is --no-verify: pre-commit and commit-msg do not run.
	noVerify bool
	fault    fault.Hook
	book     ledger.Book
	out      *progress.Progress
	desk     hall.Desk // the run's log and output, and its clock
	pids     execute.Pids
	reaper   execute.Reaper
	reports  *gaterun.Reports
	// groups are the groups the task completes (runplan.Setup.CompletedGroups).
	groups []*planparse.Task

	expect gitops.SHA                // planx's last commit; the new one once made
	done   map[planparse.TaskID]bool // the run's done tasks, the committed ones added
	dirty  []string                  // files a commit hook left out of the commit
}

// commit makes t's commit (committer.commit) and takes back into the run
// where HEAD now is, what is done and what a hook left dirty.
func (r *runner) commit(ctx context.Context, t *planparse.Task, lt *execlog.Task, last bool, folded, warnings []string) (gitops.SHA, error) {
	if r.done == nil {
		r.done = map[planparse.TaskID]bool{}
	}
	c := &committer{repo: r.repo, st: r.st, log: r.log, pf: r.pf, planRel: r.planRel, path: r.commitPath,
		noVerify: r.o.NoVerify, fault: r.fault, book: r.keeper().Book(), out: r.out, desk: r.desk(), pids: r.pids(),
		reaper: r.reaper, reports: r.keeper().Reports(), groups: r.CompletedGroups(t, r.done, r.o.Optional),
		expect: r.expect, done: r.done, dirty: r.dirty}
	sha, err := c.commit(ctx, t, lt, last, folded, warnings)
	r.expect, r.dirty = c.expect, c.dirty
	return sha, err
}

// commit ticks the task in the plan, writes the log and makes the task's one
// commit, its message carrying the executor's folded commits and the
// task's warnings. When a hook refuses the commit the tick is undone, so the
// plan never claims a task git does not have.
func (c *committer) commit(ctx context.Context, t *planparse.Task, lt *execlog.Task, last bool, folded, warnings []string) (gitops.SHA, error) {
	if err := c.onRunBranch(t); err != nil {
		return "", err
	}
	// A person's edit of the plan made while t ran stays in the work tree,
	// out of the commit: it is put back once the commit is made (or not).
	release, err := c.pf.Hold(t, heldPlanPath(c.repo, c.st.RunID, string(t.ID)))
	if err != nil {
		return "", err
	}
	sha, err := c.commitTicked(ctx, t, lt, last, folded, warnings)
	if rerr := release(); rerr != nil {
		return sha, errors.Join(err, rerr)
	}
	return sha, err
}

// commitTicked is commit with the plan as planx knows it.
func (c *committer) commitTicked(ctx context.Context, t *planparse.Task, lt *execlog.Task, last bool, folded, warnings []string) (gitops.SHA, error) {
	before := c.pf.Src
	var tree *gitops.TreeJob
	if !c.path.porcelain && !last {
		// The index is final: git writes it as a tree while planx ticks
		// the plan and writes the log, which are spliced in afterwards.
		tree = c.repo.Commits().StartWriteTree(ctx)
		defer func() { _, _ = tree.Wait() }()
	}
	groups, reopen, ticked, err := c.tickAndLog(t, lt, last)
	if err != nil {
		return "", err
	}
	undo := func() {
		lt.Status = record.TaskFailed
		reopen()
		if last {
			c.log.Status, c.log.Finished = record.RunRunning, time.Time{}
		}
		if c.pf.Untick(before) {
			c.out.Warn(t.ID, "the plan changed while the task was committed; its checkbox was left as it is: untick it by hand if the task is not done")
		}
	}
	// The task's work is staged since verify (and again after the gates);
	// only planx's own two files changed since.
	msg := ledger.TaskMessage(ledger.TaskCommit{PlanRel: c.planRel, RunID: c.st.RunID, Task: t, Log: lt, Groups: groups,
		Folded: folded, Warnings: warnings, Skipped: c.st.SkipPending, Ticked: ticked,
		Finished: c.st.FinishedNotes(t, c.st.SkipPending)})
	c.book.RecordPending(t, c.expect)
	own := []string{c.planRel, c.log.Path}
	if last && !c.path.porcelain {
		// The run ends here: leave the index as git commit would.
		if err := c.repo.Index().StageFiles(ctx, own...); err != nil {
			undo()
			return "", fmt.Errorf("commit %s: %w", t.ID, err)
		}
	}
	sha, hookWatch, err := c.writeCommit(ctx, lt, msg, own, last, tree)
	if hookWatch != nil {
		if msg := c.reaper.AfterHooks(err); msg != "" {
			hall.Warn(c.desk, t.ID, msg)
		}
	}
	if err != nil {
		// git stopped (a signal) after the commit was made, e.g. in a
		// post-commit hook: the commit exists, so the task is done and its
		// tick stays.
		if made, ok := c.landed(t); ok {
			sha, err = made, nil
		}
	}
	if err != nil {
		undo()
		return "", wavepkg.CommitError(t, err)
	}
	c.committed(ctx, t, lt, sha, groups, hookWatch)
	return sha, nil
}

// tickAndLog ticks the task and the groups it completes in the plan, marks
// it done (and the run completed when it is the last) and writes the
// execution log, all before the commit that records them. reopen undoes
// the log's resolution of the task's issues should the commit fail; ticked
// says whether any box was ticked.
func (c *committer) tickAndLog(t *planparse.Task, lt *execlog.Task, last bool) (groups []*planparse.Task, reopen func(), ticked bool, err error) {
	if ticked, err = c.pf.Tick(t); err != nil {
		return nil, nil, false, err
	}
	groups = c.groups
	for _, g := range groups {
		ok, err := c.pf.Tick(g)
		if err != nil {
			return nil, nil, false, err
		}
		ticked = ticked || ok
	}
	now := c.desk.Now()
	lt.Status, lt.Finished, lt.Commit = record.TaskDone, now, ""
	if last {
		c.log.Status, c.log.Finished = record.RunCompleted, now
	}
	reopen = c.log.Resolve(string(t.ID), fmt.Sprintf("fixed: verified, gated and committed (attempt %d)", lt.Attempts))
	c.fault.At("after-tick")
	if err := c.log.Write(c.repo.Root, c.repo.Config().Durable()); err != nil {
		return nil, nil, false, fmt.Errorf("write execution log: %w", err)
	}
	c.fault.At("after-log")
	return groups, reopen, ticked, nil
}

// writeCommit makes the task's commit the way this run commits: with git
// commit and its hooks (porcelain), or from the index planx built, with
// the tree git is writing meanwhile when there is one. hookWatch is the
// commit's files as they were before the hooks ran, for
// hookLeftovers; nil when no hooks run.
func (c *committer) writeCommit(ctx context.Context, lt *execlog.Task, msg string, own []string, last bool, tree *gitops.TreeJob) (sha gitops.SHA, hookWatch verify.CommitFiles, err error) {
	if err := c.fault.Full("commit"); err != nil {
		return "", nil, fmt.Errorf("git commit: %w", err)
	}
	switch {
	case c.path.porcelain:
		if c.path.hooks {
			hookWatch = verify.SnapshotCommit(c.repo.Root, lt.Files, []string{c.planRel, c.log.Path})
		}
		c.fault.At("after-stage")
		disarm := c.fault.Soon("during-commit", 50*time.Millisecond)
		sha, err = c.repo.Commits().Commit(ctx, msg, gitops.CommitOptions{NoVerify: c.noVerify, Started: c.pids.GitStarted,
			Include: own, Parent: c.expect})
		disarm()
		c.pids.GitDone()
	case last:
		// commit staged planx's own files already.
		c.fault.At("after-stage")
		sha, err = c.repo.Commits().CommitIndex(ctx, msg, c.expect, "HEAD")
	default:
		c.fault.At("after-stage")
		sha, err = c.repo.Commits().CommitIndexWith(ctx, msg, c.expect, "HEAD", own, tree)
	}
	return sha, hookWatch, err
}

// committed records in the run what the task's commit sha made true: the
// task and the groups it completed are done, the pending skip and dirty
// files are settled, and the commit gets its record and gate notes.
func (c *committer) committed(ctx context.Context, t *planparse.Task, lt *execlog.Task, sha gitops.SHA, groups []*planparse.Task, hookWatch verify.CommitFiles) {
	c.fault.At("after-commit")
	lt.Commit = string(sha)
	c.expect = sha
	c.reports.Committed(sha)
	c.done[t.ID] = true
	for _, g := range groups {
		c.done[g.ID] = true
		c.out.Println("planx: %s %s done: its last sub-task committed", textsafe.Line(g.DisplayID()), textsafe.Line(textsafe.Shorten(g.Title, 60)))
	}
	c.st.SkipPending = nil
	c.dirty = nil
	if hookWatch != nil {
		c.hookLeftovers(t, hookWatch.HookLeftovers(ctx, c.repo))
	}
	// The commit exists: its record and note are attached even when a
	// signal came meanwhile (git notes runs no hook; it is bounded all the
	// same).
	noteCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	noteGates(noteCtx, c.repo, c.out, t, lt, sha, c.book.RecordCommit(noteCtx, t, lt, sha))
	cancel()
	// No state write here: git now says the task is done, and the next
	// task's start (or the run's end) saves the state anyway.
	c.st.Current, c.st.Phase = "", ""
	c.fault.At("after-commit-state")
}

// noteMax bounds one gate's output in the git note: notes travel with every
// fetch of refs/notes/planx, so a runaway log must not become a huge blob.
const noteMax = 1 << 20

// noteGates attaches the whole output of the task's gates to its commit as a
// git note (refs/notes/planx), so it can travel with the history. The commit
// exists already: a failure here is only a warning.
func noteGates(ctx context.Context, repo *gitops.Repo, out *progress.Progress, t *planparse.Task, lt *execlog.Task, sha, tree gitops.SHA) {
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
	if err := repo.Notes().Add(ctx, record.NoteRef, sha, record.NoteFor(record.NoteMeta{Task: string(t.ID), Commit: string(sha), Tree: string(tree)}, gs)); err != nil {
		out.Warn(t.ID, "could not attach the gate output note: "+err.Error())
	}
}

// hookLeftovers reports the files of the commit that a commit hook
// rewrote and left out of it (verify.CommitFiles.HookLeftovers): they are
// the next task's dirty files, and the log says why.
func (c *committer) hookLeftovers(t *planparse.Task, left []string) {
	if len(left) == 0 {
		return
	}
	c.dirty = left
	shown := left
	if len(shown) > 3 {
		shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(left)-3))
	}
	msg := fmt.Sprintf("a commit hook changed %d file(s) that are not in the commit: %s", len(left), strings.Join(shown, ", "))
	c.log.Issues = append(c.log.Issues, execlog.Issue{Task: string(t.ID), What: msg, Time: c.desk.Now()})
	c.out.Warn(t.ID, msg)
	// The tree is dirty anyway; the log on disk must say why.
	_ = c.log.WriteFile(c.repo.Root)
}
