package wave

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// A wave task's commit is made as the serial path's commit is: the plan
// ticked for the task and the groups it completes, the task's message
// (ledger.TaskMessage), its log entry done in the run's log carried in the
// commit, and the task and its groups done for the tasks after it. Only
// the commit itself differs: commit-tree on the chain, with the wave's
// trailer, and the hooks planx runs itself (Hooks).

// stage makes t's task commit on parent: the merged tree with the plan
// ticked and the log updated, moving no ref.
func (l *Landing) stage(ctx context.Context, t *Task, merged, parent gitops.SHA, plan []byte, final bool) (staged, error) {
	ticked, anyTick := planparse.Tick(plan, t.T)
	// Groups this task completes are ticked in the same commit, as in the
	// serial loop.
	groups := planparse.CompletedGroups(l.Parsed.Task, t.T, l.Done, l.Optional)
	for _, g := range groups {
		var ok bool
		ticked, ok = planparse.Tick(ticked, g)
		anyTick = anyTick || ok
	}
	// The message is the hooks' to check or change before anything is
	// recorded: a refused task leaves its log entry and the log as they were.
	msg := l.message(t, groups, anyTick) + fmt.Sprintf("%s: %d %s\n", record.TrailerWave, l.Number, l.Base)
	msg, err := l.Hooks.Message(ctx, l.Repo, t.T, msg)
	if err != nil {
		return staged{}, err
	}
	log := l.logDone(t, final)
	tree, err := l.Repo.Objects().TreeWithFiles(ctx, merged, map[string][]byte{l.PlanRel: ticked, l.Log.Path: log})
	if err != nil {
		return staged{}, fmt.Errorf("commit task %s: %w", t.T.ID, err)
	}
	c, err := l.Repo.Objects().CommitTree(ctx, tree, msg, parent, l.Sign)
	if err != nil {
		return staged{}, fmt.Errorf("commit task %s: %w", t.T.ID, err)
	}
	t.Log.Commit = string(c)
	// Done for the tasks after it in the chain; Settle undoes this for a
	// commit the branch does not take.
	t.Groups = groups
	l.Done[t.T.ID] = true
	for _, g := range groups {
		l.Done[g.ID] = true
	}
	l.State.SkipPending = nil
	return staged{t: t, commit: c, plan: ticked, tree: tree, parent: parent, msg: msg}, nil
}

// message is t's commit message before the wave's trailer and the hooks;
// the first commit staged records the skips no commit has yet.
func (l *Landing) message(t *Task, groups []*planparse.Task, ticked bool) string {
	skipped := l.State.SkipPending
	return ledger.TaskMessage(ledger.TaskCommit{PlanRel: l.PlanRel, RunID: l.State.RunID, Task: t.T, Log: t.Log, Groups: groups,
		Warnings: t.Warnings, Skipped: skipped, Ticked: ticked, Finished: l.State.FinishedNotes(t.T, skipped)})
}

// logDone marks t done in the run's log (and the run's end with final,
// its last commit) and returns the log rendered for t's commit.
func (l *Landing) logDone(t *Task, final bool) []byte {
	now := l.Desk.Now()
	t.Log.Status, t.Log.Finished, t.Log.Commit = record.TaskDone, now, ""
	if final {
		l.Log.Status, l.Log.Finished = record.RunCompleted, now
	}
	return l.Log.Render()
}

// unstage takes back what staging t's commit said done: the branch does
// not take it.
func (l *Landing) unstage(t *Task) {
	delete(l.Done, t.T.ID)
	for _, g := range t.Groups {
		delete(l.Done, g.ID)
	}
}
