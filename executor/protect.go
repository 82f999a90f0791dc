package executor

import (
	"context"
	"os"
	"path"
	"slices"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/judge"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/taskgate"
	"github.com/planx-dev/planx/verify"
)

// Protected paths are the judge: the files that decide whether a task is
// done. Which paths the run protects is known here, from the plan, the
// configuration and the gates; verify.Work.Judge fails or warns about a
// task's change to one.

// protection says why path is protected, "" when it is not. It is told
// whether the path existed before the task (a new test file is not a
// weakened one) by the caller.
func (r *runner) protection(p string) string {
	switch {
	case p == r.planRel:
		return "the plan"
	case p == gates.ConfigFile:
		return "the planx configuration"
	case r.log != nil && (p == r.log.Path || verify.Covers(path.Dir(r.log.Path), p)):
		return "the execution log"
	}
	if slices.ContainsFunc(r.Config.Unprotect, func(g string) bool { return judge.MatchGlob(g, p) }) {
		return ""
	}
	if g := gateNaming(r.Gates, p); g != "" {
		return "named by gate " + g
	}
	if why := r.gateKeeper.Reached()[p]; why != "" {
		return why
	}
	if g := gaterun.GateReading(r.Gates, p); g != "" {
		return "read by gate " + g + "'s test runner"
	}
	switch {
	case path.Base(p) == ".gitignore":
		return "an ignore file"
	case slices.ContainsFunc(r.Config.Protect, func(g string) bool { return judge.MatchGlob(g, p) }):
		return "protected in .planx.yaml"
	case slices.ContainsFunc(judge.DefaultTestGlobs(), func(g string) bool { return judge.MatchGlob(g, p) }):
		return "a test file"
	}
	return ""
}

// protect is what verify.Work.Judge asks of the run: why a path is
// protected (the gates' reach is read first, once per run), and what
// lets a protected path change.
func (r *runner) protect(ctx context.Context) verify.Protect {
	r.keeper().Reach(ctx, r.expect)
	var vendor *gaterun.VendorUpdates // read on the first vendored file
	return verify.Protect{
		Why:       r.protection,
		TakesOver: gaterun.TakesOverTests,
		Unchanged: taskgate.JudgeUnchanged(r.repo, r.expect),
		Vendored: func(ctx context.Context, p string) bool {
			if vendor == nil {
				u := taskgate.VendorUpdates(ctx, r.repo, r.expect)
				vendor = &u
			}
			return vendor.Allows(p)
		},
		Yes: r.o.Yes,
		Ask: r.o.ask(),
	}
}

// work is task t's work, in the work tree, as the checks of package verify read it.
func (r *runner) work(t *planparse.Task, kind planparse.Kind, files []string) verify.Work {
	return verify.Work{Repo: r.repo, Root: r.repo.Root, Base: r.expect, Task: t, Kind: kind, Files: files,
		Warn: func(_ planparse.TaskID, msg string) { r.warnIssue(t, msg) },
		Note: func(id planparse.TaskID, msg, resolution string) {
			is := r.issue(id, msg)
			is.Resolution = resolution
			r.log.Issues = append(r.log.Issues, is)
		}}
}

// gateNaming returns the first gate whose command names p, "" for none.
func gateNaming(gs []gates.Gate, p string) string {
	for _, g := range gs {
		if slices.Contains(gaterun.GateScripts([]gates.Gate{g}), p) {
			return g.Name
		}
	}
	return ""
}

// warnIssue records a warning in the log and says it.
func (r *runner) warnIssue(t *planparse.Task, msg string) {
	r.log.Issues = append(r.log.Issues, r.issue(t.ID, msg))
	r.out.Warn(t.ID, msg)
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
