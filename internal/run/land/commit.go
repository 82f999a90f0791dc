package land

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
	"github.com/planx-dev/planx/internal/proc"
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

// Committer makes a task's one commit, in place: it ticks the plan, writes the log,
// commits the way the run commits (CommitPath) and records what the commit
// made true. It is what of the run a commit needs, taken from the runner
// for one commit; the runner reads Expect, Done and Dirty back.
type Committer struct {
	Repo    *gitops.Repo
	State   *runstate.State
	Log     *execlog.Log
	Plan    *planfile.File
	PlanRel string
	Path    CommitPath
	// NoVerify is --no-verify: pre-commit and commit-msg do not run.
	NoVerify bool
	Fault    fault.Hook
	Book     ledger.Book
	Out      *progress.Progress
	Desk     hall.Desk // the run's log and output, and its clock
	Pids     proc.Pids
	Reaper   execute.Reaper
	Reports  *gaterun.Reports
	// Groups are the groups the task completes (runplan.Setup.CompletedGroups).
	Groups []*planparse.Task
	// HeldPlan is where a person's edit of the plan made while the task
	// ran is kept while the commit is made (planfile.File.Hold).
	HeldPlan string

	Expect gitops.SHA                // planx's last commit; the new one once made
	Done   map[planparse.TaskID]bool // the run's done tasks, the committed ones added
	Dirty  []string                  // files a commit hook left out of the commit
}

// commit ticks the task in the plan, writes the log and makes the task's one
// commit, its message carrying the executor's folded commits and the
// task's warnings. When a hook refuses the commit the tick is undone, so the
// plan never claims a task git does not have.
func (c *Committer) Commit(ctx context.Context, t *planparse.Task, lt *execlog.Task, last bool, folded, warnings []string) (gitops.SHA, error) {
	if err := c.onRunBranch(t); err != nil {
		return "", err
	}
	// A person's edit of the plan made while t ran stays in the work tree,
	// out of the commit: it is put back once the commit is made (or not).
	release, err := c.Plan.Hold(t, c.HeldPlan)
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
func (c *Committer) commitTicked(ctx context.Context, t *planparse.Task, lt *execlog.Task, last bool, folded, warnings []string) (gitops.SHA, error) {
	before := c.Plan.Src
	var tree *gitops.TreeJob
	if !c.Path.Porcelain && !last {
		// The index is final: git writes it as a tree while planx ticks
		// the plan and writes the log, which are spliced in afterwards.
		tree = c.Repo.Commits().StartWriteTree(ctx)
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
			c.Log.Status, c.Log.Finished = record.RunRunning, time.Time{}
		}
		if c.Plan.Untick(before) {
			c.Out.Warn(t.ID, "the plan changed while the task was committed; its checkbox was left as it is: untick it by hand if the task is not done")
		}
	}
	// The task's work is staged since verify (and again after the gates);
	// only planx's own two files changed since.
	msg := ledger.TaskMessage(ledger.TaskCommit{PlanRel: c.PlanRel, RunID: c.State.RunID, Task: t, Log: lt, Groups: groups,
		Folded: folded, Warnings: warnings, Skipped: c.State.SkipPending, Ticked: ticked,
		Finished: c.State.FinishedNotes(t, c.State.SkipPending)})
	c.Book.RecordPending(t, c.Expect)
	own := []string{c.PlanRel, c.Log.Path}
	if last && !c.Path.Porcelain {
		// The run ends here: leave the index as git commit would.
		if err := c.Repo.Index().StageFiles(ctx, own...); err != nil {
			undo()
			return "", fmt.Errorf("commit %s: %w", t.ID, err)
		}
	}
	sha, hookWatch, err := c.writeCommit(ctx, lt, msg, own, last, tree)
	if hookWatch != nil {
		if msg := c.Reaper.AfterHooks(err); msg != "" {
			hall.Warn(c.Desk, t.ID, msg)
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
func (c *Committer) tickAndLog(t *planparse.Task, lt *execlog.Task, last bool) (groups []*planparse.Task, reopen func(), ticked bool, err error) {
	if ticked, err = c.Plan.Tick(t); err != nil {
		return nil, nil, false, err
	}
	groups = c.Groups
	for _, g := range groups {
		ok, err := c.Plan.Tick(g)
		if err != nil {
			return nil, nil, false, err
		}
		ticked = ticked || ok
	}
	now := c.Desk.Now()
	lt.Status, lt.Finished, lt.Commit = record.TaskDone, now, ""
	if last {
		c.Log.Status, c.Log.Finished = record.RunCompleted, now
	}
	reopen = c.Log.Resolve(string(t.ID), fmt.Sprintf("fixed: verified, gated and committed (attempt %d)", lt.Attempts))
	c.Fault.At("after-tick")
	if err := c.Log.Write(c.Repo.Root, c.Repo.Config().Durable()); err != nil {
		return nil, nil, false, fmt.Errorf("write execution log: %w", err)
	}
	c.Fault.At("after-log")
	return groups, reopen, ticked, nil
}

// writeCommit makes the task's commit the way this run commits: with git
// commit and its hooks (porcelain), or from the index planx built, with
// the tree git is writing meanwhile when there is one. hookWatch is the
// commit's files as they were before the hooks ran, for
// hookLeftovers; nil when no hooks run.
func (c *Committer) writeCommit(ctx context.Context, lt *execlog.Task, msg string, own []string, last bool, tree *gitops.TreeJob) (sha gitops.SHA, hookWatch verify.CommitFiles, err error) {
	if err := c.Fault.Full("commit"); err != nil {
		return "", nil, fmt.Errorf("git commit: %w", err)
	}
	switch {
	case c.Path.Porcelain:
		if c.Path.Hooks {
			hookWatch = verify.SnapshotCommit(c.Repo.Root, lt.Files, []string{c.PlanRel, c.Log.Path})
		}
		c.Fault.At("after-stage")
		disarm := c.Fault.Soon("during-commit", 50*time.Millisecond)
		sha, err = c.Repo.Commits().Commit(ctx, msg, gitops.CommitOptions{NoVerify: c.NoVerify, Started: c.Pids.GitStarted,
			Include: own, Parent: c.Expect})
		disarm()
		c.Pids.GitDone()
	case last:
		// commit staged planx's own files already.
		c.Fault.At("after-stage")
		sha, err = c.Repo.Commits().CommitIndex(ctx, msg, c.Expect, "HEAD")
	default:
		c.Fault.At("after-stage")
		sha, err = c.Repo.Commits().CommitIndexWith(ctx, msg, c.Expect, "HEAD", own, tree)
	}
	return sha, hookWatch, err
}

// committed records in the run what the task's commit sha made true: the
// task and the groups it completed are done, the pending skip and dirty
// files are settled, and the commit gets its record and gate notes.
func (c *Committer) committed(ctx context.Context, t *planparse.Task, lt *execlog.Task, sha gitops.SHA, groups []*planparse.Task, hookWatch verify.CommitFiles) {
	c.Fault.At("after-commit")
	lt.Commit = string(sha)
	c.Expect = sha
	c.Reports.Committed(sha)
	c.Done[t.ID] = true
	for _, g := range groups {
		c.Done[g.ID] = true
		c.Out.Println("planx: %s %s done: its last sub-task committed", textsafe.Line(g.DisplayID()), textsafe.Line(textsafe.Shorten(g.Title, 60)))
	}
	c.State.SkipPending = nil
	c.Dirty = nil
	if hookWatch != nil {
		c.hookLeftovers(t, hookWatch.HookLeftovers(ctx, c.Repo))
	}
	// The commit exists: its record and note are attached even when a
	// signal came meanwhile (git notes runs no hook; it is bounded all the
	// same).
	noteCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	NoteGates(noteCtx, c.Repo, c.Out, t, lt, sha, c.Book.RecordCommit(noteCtx, t, lt, sha))
	cancel()
	// No state write here: git now says the task is done, and the next
	// task's start (or the run's end) saves the state anyway.
	c.State.Current, c.State.Phase = "", ""
	c.Fault.At("after-commit-state")
}

// noteMax bounds one gate's output in the git note: notes travel with every
// fetch of refs/notes/planx, so a runaway log must not become a huge blob.
const noteMax = 1 << 20

// NoteGates attaches the whole output of the task's gates to its commit as a
// git note (refs/notes/planx), so it can travel with the history. The commit
// exists already: a failure here is only a warning.
func NoteGates(ctx context.Context, repo *gitops.Repo, out *progress.Progress, t *planparse.Task, lt *execlog.Task, sha, tree gitops.SHA) {
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
func (c *Committer) hookLeftovers(t *planparse.Task, left []string) {
	if len(left) == 0 {
		return
	}
	c.Dirty = left
	shown := left
	if len(shown) > 3 {
		shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(left)-3))
	}
	msg := fmt.Sprintf("a commit hook changed %d file(s) that are not in the commit: %s", len(left), strings.Join(shown, ", "))
	c.Log.Issues = append(c.Log.Issues, execlog.Issue{Task: string(t.ID), What: msg, Time: c.Desk.Now()})
	c.Out.Warn(t.ID, msg)
	// The tree is dirty anyway; the log on disk must say why.
	_ = c.Log.WriteFile(c.Repo.Root)
}
