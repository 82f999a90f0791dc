package executor

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/handconfig"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/verify"
)

// verify stages the task's work and checks with git, never with the executor's word, that the task did
// real work: HEAD is where planx left it (commits of the executor's own are
// folded into the task), .git/ was not written, something changed (unless
// the task is a checkpoint), and the declared files exist, or are gone when
// declared deleted, and were touched. It returns the changed paths.
func (tu *turn) verify(ctx context.Context) ([]string, error) {
	r, t := tu.r, tu.t
	tu.warnings = nil
	// An executor in flight when the run stopped (resume).
	tu.noteMark()
	if err := r.recordsGuard().Untouched(t); err != nil {
		return nil, err
	}
	if err := tu.foldCommits(ctx); err != nil {
		return nil, err
	}
	if written, err := verify.GitDirChanged(ctx, r.repo, r.st.RunID, tu.guard); err != nil {
		return nil, err
	} else if len(written) > 0 {
		return nil, verify.GitDirWritten(r.repo, tu.meta, written)
	}
	if err := verify.Replace(ctx, r.repo, tu.replace); err != nil {
		return nil, err
	}
	if tu.foldedTip != "" {
		keep := record.RunRef(r.st.RunID, "folded/"+string(t.ID))
		if err := r.repo.Refs().Update(ctx, keep, tu.foldedTip, "", "planx: commits folded into a task"); err != nil {
			return nil, err
		}
		tu.foldedTip = ""
	}
	kind := r.Executor(t)
	outputs, err := r.work(t, kind, nil).Hiding(ctx, verify.Hiding{Log: r.log.Path, Watch: tu.watch,
		Hidden: r.st.Hidden, Off: r.st.HiddenTooMany, GatesInTree: r.o.GatesIn == GatesTree})
	if err != nil {
		return nil, err
	}
	tu.outputs = outputs
	// One scan of the work tree per task: stage everything (every ignore
	// rule honoured); git add says what it staged.
	changed, err := r.repo.Index().StageChanges(ctx, r.expect, handconfig.Unstaged(r.repo.Root, r.st)...)
	if err != nil {
		return nil, fmt.Errorf("verify %s: %w", t.ID, err)
	}
	var files []string
	for _, p := range changed {
		// The log is planx's own output and the plan gets ticked by planx:
		// neither is evidence of the task's work.
		if p == r.log.Path || (p == r.planRel && r.pf.OnlyTicked(t)) {
			continue
		}
		files = append(files, p)
	}
	sort.Strings(files)
	if len(files) == 0 && !t.Checkpoint {
		return nil, &outcome.Failure{What: "no changes: the task was expected to change the repository and changed nothing",
			Hint: "if the task only verifies, the plan can say `Checkpoint: yes`"}
	}
	w := r.work(t, kind, files)
	if err := w.Judge(ctx, r.protect(ctx)); err != nil {
		return nil, err
	}
	if err := w.Takeover(ctx); err != nil {
		return nil, err
	}
	if err := tu.runners().Check(files); err != nil {
		return nil, err
	}
	if err := w.Secrets(); err != nil {
		return nil, err
	}
	outside, err := verify.Declared(r.repo.Root, t, files, r.o.StrictFiles)
	if err != nil {
		return nil, err
	}
	if len(outside) > 0 {
		tu.warnings = append(tu.warnings, r.warnOutside(t, outside))
	}
	return files, nil
}

// warnOutside records, in the log and on screen, the files a task changed
// outside its declared ones (allowed: no --strict-files), and returns the
// commit's Planx-Warning value for them.
func (r *runner) warnOutside(t *planparse.Task, outside []string) string {
	msg := verify.OutsideMessage(outside)
	is := r.issue(t.ID, msg)
	is.Resolution = "allowed: --strict-files not set"
	r.log.Issues = append(r.log.Issues, is)
	r.out.Warn(t.ID, msg)
	return "outside-declared=" + strings.Join(outside, ",")
}

// foldCommits turns commits the executor made on its own into staged changes
// of the task, keeping their messages for the task commit's body. A branch
// switch or a rewrite of history planx had fails the task.
func (tu *turn) foldCommits(ctx context.Context) error {
	r, t := tu.r, tu.t
	head, err := r.repo.HeadNow()
	if err != nil {
		return err
	}
	if head.Branch != r.st.Branch {
		return &outcome.Failure{What: fmt.Sprintf("the task switched HEAD from branch %q to %q; %s", r.st.Branch, headName(head), switchBack(r.st.Branch, "`planx resume`"))}
	}
	f, err := verify.Fold(ctx, r.repo, r.st.Branch, t.ID, r.expect, head.SHA, r.Executor(t) == planparse.KindShell)
	if err != nil || f.Tip == "" {
		return err
	}
	// The executor's (an agent's, or a person's doing a manual task)
	// commits stay reachable after the fold.
	// The ref is written after the check of the git directory (verify):
	// planx's own write must not read as the task's.
	keep := record.RunRef(r.st.RunID, "folded/"+string(t.ID))
	tu.foldedTip = f.Tip
	tu.folded = append(tu.folded, f.Messages...)
	msg := fmt.Sprintf("folded %d commit(s) the executor made itself into the task commit (by %s; kept at %s)", len(f.Messages), strings.Join(f.Authors, ", "), keep)
	tu.warnings = append(tu.warnings, fmt.Sprintf("folded-commits=%d", len(f.Messages)))
	is := r.issue(t.ID, msg)
	is.Resolution = "fixed: folded"
	r.log.Issues = append(r.log.Issues, is)
	r.out.Warn(t.ID, msg)
	return nil
}

// noteMark keeps the records' mark an agent ran under before it is
// settled (cleared), for the check of the installed test runners.
func (tu *turn) noteMark() {
	if m := tu.r.st.RecordsMark; m != 0 {
		tu.agentMark = m
	}
}

// runners is what verify.Runners reads of the turn: the dependency
// environments among the ignored directories of the run's start and, when
// the turn saw the agent start, of the agent's.
func (tu *turn) runners() verify.Runners {
	if tu.agentMark == 0 {
		return verify.Runners{}
	}
	ignored := tu.r.ignored
	if tu.watch != nil {
		ignored = append(slices.Clone(ignored), tu.watch.Ignored...)
		slices.Sort(ignored)
		ignored = slices.Compact(ignored)
	}
	root := tu.r.repo.Root
	return verify.Runners{Root: root, Envs: gaterun.DepEnvs(root, ignored), Mark: tu.agentMark, Rejudged: tu.rejudged, Left: tu.left}
}
