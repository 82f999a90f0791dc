package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
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
	if err := r.recordsGuard().untouched(t); err != nil {
		return nil, err
	}
	if err := tu.foldCommits(ctx); err != nil {
		return nil, err
	}
	if written, err := tu.gitDirChanged(ctx); err != nil {
		return nil, err
	} else if len(written) > 0 {
		return nil, tu.gitDirWritten(written)
	}
	if err := tu.checkReplace(ctx); err != nil {
		return nil, err
	}
	if tu.foldedTip != "" {
		keep := record.RunRef(r.st.RunID, "folded/"+string(t.ID))
		if err := r.repo.Refs().Update(ctx, keep, tu.foldedTip, "", "planx: commits folded into a task"); err != nil {
			return nil, err
		}
		tu.foldedTip = ""
	}
	kind := r.executorFor(t)
	if err := tu.checkHiding(ctx); err != nil {
		return nil, err
	}
	// One scan of the work tree per task: stage everything (every ignore
	// rule honoured); git add says what it staged.
	changed, err := r.repo.Index().StageChanges(ctx, r.expect, r.handConfig()...)
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
	if err := r.checkJudge(ctx, t, kind, files); err != nil {
		return nil, err
	}
	if err := r.checkTakeover(ctx, t, kind, files); err != nil {
		return nil, err
	}
	if err := tu.checkRunners(ctx, files); err != nil {
		return nil, err
	}
	if err := r.checkTaskSecrets(t, kind, files); err != nil {
		return nil, err
	}
	if err := tu.checkDeclared(files); err != nil {
		return nil, err
	}
	return files, nil
}

// checkDeclared compares the changed files with the task's declared ones.
func (tu *turn) checkDeclared(files []string) error {
	outside, err := tu.r.outsideDeclared(tu.r.repo.Root, tu.t, files)
	if err == nil && len(outside) > 0 {
		tu.warnings = append(tu.warnings, tu.r.warnOutside(tu.t, outside))
	}
	return err
}

// outsideDeclared checks the files a task changed, in root (the work tree
// or a wave task's slot), against those it declares, for the serial path
// and the waves alike: a declaration the changes contradict fails the
// task, and so do files outside the declared ones with --strict-files;
// without it they are returned, for warnOutside.
func (r *runner) outsideDeclared(root string, t *planparse.Task, files []string) ([]string, error) {
	problems, err := declaredProblems(root, t, files)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, &outcome.Failure{What: "declared files: " + strings.Join(problems, "; ")}
	}
	if len(t.Files) == 0 {
		return nil, nil
	}
	var outside []string
	for _, f := range files {
		if !anyCovers(t.Files, f) {
			outside = append(outside, f)
		}
	}
	if len(outside) > 0 && r.o.StrictFiles {
		return nil, &outcome.Failure{What: outsideMessage(outside) + " (--strict-files)"}
	}
	return outside, nil
}

// warnOutside records, in the log and on screen, the files a task changed
// outside its declared ones (allowed: no --strict-files), and returns the
// commit's Planx-Warning value for them.
func (r *runner) warnOutside(t *planparse.Task, outside []string) string {
	msg := outsideMessage(outside)
	is := r.issue(t.ID, msg)
	is.Resolution = "allowed: --strict-files not set"
	r.log.Issues = append(r.log.Issues, is)
	r.out.Warn(t.ID, msg)
	return "outside-declared=" + strings.Join(outside, ",")
}

func outsideMessage(outside []string) string {
	return fmt.Sprintf("changed %s outside its declared files: %s", textsafe.Count(len(outside), "file"), strings.Join(outside, ", "))
}

// declaredProblems checks a task's declared files against the work in root
// (the work tree, or a wave task's own linked worktree): each must exist or
// be gone as declared, have been changed by the task, and a created file
// must not be empty unless the task says so.
func declaredProblems(root string, t *planparse.Task, files []string) ([]string, error) {
	var problems []string
	for _, f := range t.Files {
		fi, err := os.Lstat(relJoin(root, f.Path))
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("verify %s: %w", t.ID, err)
		}
		switch {
		case f.Action == planparse.ActionDelete && exists:
			problems = append(problems, fmt.Sprintf("%s was declared deleted but still exists", f.Path))
		case f.Action != planparse.ActionDelete && !exists:
			problems = append(problems, fmt.Sprintf("%s was declared (%s) but does not exist", f.Path, f.Action))
		case !touched(f.Path, files) && !t.Checkpoint:
			problems = append(problems, fmt.Sprintf("%s was declared (%s) but the task did not change it", f.Path, f.Action))
		case f.Action == planparse.ActionCreate && fi.Mode().IsRegular() && fi.Size() == 0 && !saysEmpty(t, f.Path):
			problems = append(problems, fmt.Sprintf("%s was declared (create) but is empty", f.Path))
		}
	}
	return problems, nil
}

// covers reports whether a declared path names file: the file itself, or a
// directory above it.
func covers(declared, file string) bool {
	declared = strings.TrimSuffix(declared, "/")
	return file == declared || strings.HasPrefix(file, declared+"/")
}

func touched(declared string, files []string) bool {
	return slices.ContainsFunc(files, func(f string) bool { return covers(declared, f) })
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
	if head.SHA == r.expect {
		return nil
	}
	ok, err := r.repo.History().IsAncestor(ctx, r.expect, head.SHA)
	if err != nil {
		return fmt.Errorf("check %s is below HEAD: %w", r.expect.Short(), err)
	}
	if !ok {
		return &outcome.Failure{What: fmt.Sprintf("the task rewrote history: %s is no longer below HEAD (%s); planx will not build on it", r.expect.Short(), head.SHA.Short())}
	}
	own, err := r.repo.History().Log(ctx, head.SHA, r.expect, 0)
	if err != nil {
		return err
	}
	if r.executorFor(t) == "shell" {
		// A shell step does not commit by itself: a person did, in another
		// terminal. Their commit is theirs, never folded into a task's.
		return fmt.Errorf("%w: %d commit(s) were made on %s while %s ran (newest: %s %s); planx does not fold a commit it did not ask for and committed nothing: move them away (e.g. git branch keep %s && git reset --soft %s), then `planx resume`, or `planx abort`",
			gitops.ErrRepoState, len(own), r.st.Branch, t.ID, own[0].SHA.Short(), own[0].Subject, own[0].SHA.Short(), r.expect.Short())
	}
	// The executor's (an agent's, or a person's doing a manual task)
	// commits stay reachable after the fold.
	// The ref is written after the check of the git directory (verify):
	// planx's own write must not read as the task's.
	keep := record.RunRef(r.st.RunID, "folded/"+string(t.ID))
	tu.foldedTip = head.SHA
	if err := r.repo.ResetSoft(ctx, r.expect); err != nil {
		return err
	}
	var authors []string
	for i := len(own) - 1; i >= 0; i-- {
		tu.folded = append(tu.folded, strings.TrimSpace(own[i].Subject+"\n\n"+own[i].Body+"\n\n(author: "+own[i].Author+")"))
		if !slices.Contains(authors, own[i].Author) {
			authors = append(authors, own[i].Author)
		}
	}
	msg := fmt.Sprintf("folded %d commit(s) the executor made itself into the task commit (by %s; kept at %s)", len(own), strings.Join(authors, ", "), keep)
	tu.warnings = append(tu.warnings, fmt.Sprintf("folded-commits=%d", len(own)))
	is := r.issue(t.ID, msg)
	is.Resolution = "fixed: folded"
	r.log.Issues = append(r.log.Issues, is)
	r.out.Warn(t.ID, msg)
	return nil
}

// saysEmpty reports whether the task says the file is meant to be empty: a
// line of the task naming the path also says "empty".
func saysEmpty(t *planparse.Task, p string) bool {
	for _, l := range strings.Split(t.Body, "\n") {
		if strings.Contains(l, p) && strings.Contains(strings.ToLower(l), "empty") {
			return true
		}
	}
	return false
}
