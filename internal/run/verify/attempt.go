package verify

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// Attempt is what the checks keep of one task between its phases: what
// was noted before its executor ran, what the executor did that the commit
// tells, and what a judged attempt left for a resume.
type Attempt struct {
	Guard   Guard                 // a fingerprint of the git directory before the task
	Meta    *MetaSnapshot         // the git directory's config, hooks and info/ before the task
	Replace map[string]gitops.SHA // the replace refs before the task (ReplaceRefs)
	Watch   *Watch                // what the executor could change unseen; nil on resume
	Mark    records.Mark          // the records' mark an agent ran under (Runners); 0 for none
	// Folded are the messages of commits an executor made, for the task
	// commit; FoldedTip is the executor's last commit, kept in a ref once
	// Verify checked .git.
	Folded    []string
	FoldedTip gitops.SHA
	// SpaceTip is where an agent's HEAD ended in its task space when it
	// committed there (its objects are in the repository by then): those
	// commits are folded as if made on the run's branch.
	SpaceTip gitops.SHA
	Warnings []string // Planx-Warning values of the task being committed
	// Rejudged: the work in the tree is a judged attempt's, resumed; Left
	// is the runner files that attempt changed, by content (Runners).
	Rejudged bool
	Left     map[string]string
	// Outputs are the ignored files the agent left that ignore rules older
	// than it ignore (Work.Hiding): the gates judge the commit without them.
	Outputs []string
	// Wrote are the paths the agent wrote or deleted in its task space
	// (execute.AgentEnd): what else changed meanwhile is a person's, not
	// the task's. nil when unknown (no space, a resumed attempt).
	Wrote []string
	// Hand are a person's edits after a stop that a resume found in the
	// work tree; Verify splits them (Belongs): HandOwn go into the task's
	// commit, Apart stay unstaged, out of its gates and commit.
	Hand    Hand
	HandOwn []string
	Apart   []string
}

// Verify stages the task's work and checks with git, never with the
// executor's word, that task t did real work: HEAD is where planx left it
// (commits of the executor's own are folded into the task), .git/ was not
// written, something changed (unless the task is a checkpoint), and the
// declared files exist, or are gone when declared deleted, and were
// touched. It returns the changed paths.
func (a *Attempt) Verify(ctx context.Context, c Tree, t *planparse.Task, kind planparse.Kind, mark records.Mark) ([]string, error) {
	a.Warnings = nil
	if c.Rules.Reached == nil {
		// Without them the files the gates run would pass as unprotected.
		return nil, fmt.Errorf("verify %s: the files the gates run were not read", t.ID)
	}
	// An executor in flight when the run stopped (resume).
	a.NoteMark(mark)
	if err := c.Records.Untouched(t); err != nil {
		return nil, err
	}
	if err := a.fold(ctx, c, t, kind); err != nil {
		return nil, err
	}
	if err := a.gitDir(ctx, c, t); err != nil {
		return nil, err
	}
	outputs, err := c.Work(t, kind, nil).Hiding(ctx, Hiding{Log: c.Rules.Log, Watch: a.Watch,
		Hidden: c.Hidden, Off: c.HiddenOff, GatesInTree: c.GatesInTree})
	if err != nil {
		return nil, err
	}
	a.Outputs = outputs
	files, err := a.stage(ctx, c, t, kind)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 && !t.Checkpoint {
		return nil, &outcome.Failure{What: "no changes: the task was expected to change the repository and changed nothing",
			Hint: "if the task only verifies, the plan can say `Checkpoint: yes`"}
	}
	w := c.Work(t, kind, files)
	// Only the person's own files: a fix of a file the stopped attempt
	// changed still carries the attempt's change, which the judge reads.
	w.Hand = slices.DeleteFunc(slices.Clone(a.HandOwn), func(p string) bool { return slices.Contains(a.Hand.Attempt, p) })
	if err := w.Judge(ctx, c.Protect(files)); err != nil {
		return nil, err
	}
	if err := w.Takeover(ctx); err != nil {
		return nil, err
	}
	if err := a.Runners(c).Check(files); err != nil {
		return nil, err
	}
	if err := w.Secrets(); err != nil {
		return nil, err
	}
	outside, err := Declared(c.Repo.Root, t, files, c.Strict)
	if err != nil {
		return nil, err
	}
	if len(outside) > 0 {
		a.Warnings = append(a.Warnings, c.Outside(t, outside, a.HandOwn))
	}
	return files, nil
}

// gitDir checks that the task left the git directory and the replace
// refs alone, then keeps the commits folded into it in a ref: planx's own
// write must not read as the task's.
func (a *Attempt) gitDir(ctx context.Context, c Tree, t *planparse.Task) error {
	if written, err := GitDirChanged(ctx, c.Repo, c.Watched, a.Guard); err != nil {
		return err
	} else if len(written) > 0 {
		return GitDirWritten(c.Repo, a.Meta, written)
	}
	if err := Replace(ctx, c.Repo, a.Replace); err != nil {
		return err
	}
	if a.FoldedTip != "" {
		keep := record.RunRef(c.RunID, "folded/"+string(t.ID))
		if err := c.Repo.Refs().Update(ctx, keep, a.FoldedTip, "", "planx: commits folded into a task"); err != nil {
			return err
		}
		a.FoldedTip = ""
	}
	return nil
}

// stage stages everything in one scan of the work tree per task (every
// ignore rule honoured) and returns the paths the task changed: git add
// says what it staged. A person's edits that are not the task's (an agent
// in a task space did not write them; a resume's rule says so) are staged
// again without, and stay in the work tree.
func (a *Attempt) stage(ctx context.Context, c Tree, t *planparse.Task, kind planparse.Kind) ([]string, error) {
	except, err := c.planEdit(t, kind)
	if err != nil {
		return nil, err
	}
	except = append(slices.Clone(c.Unstaged), except...)
	changed, err := c.Repo.Index().StageChanges(ctx, c.Base, except...)
	if err != nil {
		return nil, fmt.Errorf("verify %s: %w", t.ID, err)
	}
	a.HandOwn, a.Apart = nil, nil
	if a.Hand.Any() && c.PersonEdits {
		if a.HandOwn, a.Apart, err = c.split(ctx, t, a.Hand); err != nil {
			return nil, err
		}
	}
	// A person's edits the rule gave to the task, or left apart already,
	// are not judged again by what the executor wrote.
	judged := slices.Concat(a.HandOwn, a.Apart)
	unjudged := slices.DeleteFunc(slices.Clone(changed), func(p string) bool { return slices.Contains(judged, p) })
	others := append(c.othersEdits(t, kind, unjudged, a.Wrote), a.Apart...)
	if len(others) > 0 {
		// Staged with the rest: staged again without them.
		if changed, err = c.Repo.Index().StageChanges(ctx, c.Base, append(except, others...)...); err != nil {
			return nil, fmt.Errorf("verify %s: %w", t.ID, err)
		}
	}
	var files []string
	for _, p := range changed {
		// The log is planx's own output and the plan gets ticked by planx:
		// neither is evidence of the task's work.
		if p == c.Rules.Log || (p == c.Rules.Plan && c.Plan.OnlyTicked(t)) {
			continue
		}
		files = append(files, p)
	}
	sort.Strings(files)
	return files, nil
}

// othersEdits are the changed paths an executor (an agent, a shell task's
// steps) that ran in a task space did not write (wrote), other than planx's own files and those already
// changed when the task started (c.Dirty): a person's edits made while it
// ran, which stay in the work tree, reported, out of the task's commit.
// Only where a person edits (c.PersonEdits).
func (c Tree) othersEdits(t *planparse.Task, kind planparse.Kind, changed, wrote []string) []string {
	if wrote == nil || !c.PersonEdits {
		return nil
	}
	var others []string
	for _, p := range changed {
		if p == c.Rules.Log || p == c.Rules.Plan || slices.Contains(c.Dirty, p) || underAny(p, wrote) {
			continue
		}
		others = append(others, p)
	}
	if len(others) > 0 {
		who := "agent ran, but not by it (it ran in a task space, which says what it wrote)"
		if kind != planparse.KindAgent {
			who = "steps ran, but not by them (they ran in a task space, which says what they wrote)"
		}
		c.warn(t.ID, fmt.Sprintf("changed while %s's %s: %s; left in the work tree, uncommitted, out of %s's commit",
			t.ID, who, strings.Join(others, ", "), t.ID))
	}
	return others
}

// underAny reports whether p is one of paths or lies under one.
func underAny(p string, paths []string) bool {
	for _, q := range paths {
		if p == q || strings.HasPrefix(p, q+"/") {
			return true
		}
	}
	return false
}

// planEdit judges an edit of the plan made while t ran, beyond t's own
// tick. An agent that changed another task's text fails: the plan says
// what the other tasks are, not an agent. Any other edit is a person's
// (a shell or manual task's steps are the person's own): it stays in the
// work tree, reported, and out of t's commit; the plan is then returned
// as the path the staging leaves alone.
func (c Tree) planEdit(t *planparse.Task, kind planparse.Kind) ([]string, error) {
	if !c.PersonEdits {
		return nil, nil // the plan is the executor's to keep: judged as a protected file
	}
	ch, ok := c.Plan.Changed(t)
	what, tasks := ch.String(), ok && ch.Others(t)
	switch {
	case what == "":
		return nil, nil
	case kind == planparse.KindAgent && tasks:
		return nil, &outcome.Failure{What: fmt.Sprintf("the task changed %s in %s: another task's text is not the agent's to change", what, c.Rules.Plan),
			Hint: fmt.Sprintf("restore the other tasks' text (git restore --source=HEAD --worktree %s takes back every uncommitted change of the plan); a change of the plan is a person's, made while the run is stopped", c.Rules.Plan)}
	case kind == planparse.KindAgent:
		return nil, nil // the judge's protected files: Work.Judge decides
	}
	c.Plan.HoldEdit()
	c.warn(t.ID, fmt.Sprintf("%s was edited while %s ran (%s): not the task's work, it stays in the work tree, uncommitted, and out of %s's commit",
		c.Rules.Plan, t.ID, what, t.ID))
	return []string{c.Rules.Plan}, nil
}

// NoteMark keeps the records' mark (the run state's) an agent ran under
// before it is settled (cleared), for the check of the installed test
// runners.
func (a *Attempt) NoteMark(mark records.Mark) {
	if mark != 0 {
		a.Mark = mark
	}
}

// Runners is what Runners reads of the attempt: the ignored
// entries of the run's start and, when the attempt saw the agent start, of
// the agent's, among which the dependency environments are.
func (a *Attempt) Runners(c Tree) Runners {
	if a.Mark == 0 {
		return Runners{}
	}
	ignored := c.Ignored
	if a.Watch != nil {
		ignored = append(slices.Clone(ignored), a.Watch.Ignored...)
		slices.Sort(ignored)
		ignored = slices.Compact(ignored)
	}
	return Runners{Root: c.Repo.Root, Ignored: ignored, Mark: a.Mark, Rejudged: a.Rejudged, Left: a.Left}
}
