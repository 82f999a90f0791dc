package executor

import (
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/judge"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
)

// Protected paths are the judge: the files that decide whether a task is
// done. A task that could rewrite them could make any work pass. An agent
// task that modifies or deletes one fails ("the task weakened the judge");
// a shell or manual task, written or done by the user, gets a warning.

// protection says why path is protected, "" when it is not. It is told
// whether the path existed before the task (a new test file is not a
// weakened one) by the caller.
func (r *runner) protection(p string) string {
	switch {
	case p == r.planRel:
		return "the plan"
	case p == gates.ConfigFile:
		return "the planx configuration"
	case r.log != nil && (p == r.log.Path || covers(path.Dir(r.log.Path), p)):
		return "the execution log"
	}
	if slices.ContainsFunc(r.cfg.Unprotect, func(g string) bool { return judge.MatchGlob(g, p) }) {
		return ""
	}
	if g := gateNaming(r.gates, p); g != "" {
		return "named by gate " + g
	}
	if why := r.reached[p]; why != "" {
		return why
	}
	if g := gaterun.GateReading(r.gates, p); g != "" {
		return "read by gate " + g + "'s test runner"
	}
	switch {
	case path.Base(p) == ".gitignore":
		return "an ignore file"
	case slices.ContainsFunc(r.cfg.Protect, func(g string) bool { return judge.MatchGlob(g, p) }):
		return "protected in .planx.yaml"
	case slices.ContainsFunc(judge.DefaultTestGlobs(), func(g string) bool { return judge.MatchGlob(g, p) }):
		return "a test file"
	}
	return ""
}

// alwaysAsk reports protections a declaration alone does not lift: the
// plan, the configuration and the log need the user's confirmation too.
func alwaysAsk(why string) bool {
	return why == "the plan" || why == "the planx configuration" || why == "the execution log"
}

// checkJudge fails an agent task that modified or deleted a protected path
// it did not declare, and warns for other executors. files are the paths
// the task changed; the plan counts only when changed beyond the task's own
// checkbox.
func (r *runner) checkJudge(ctx context.Context, t *planparse.Task, kind string, files []string) error {
	type hit struct{ p, why string }
	r.reach(ctx)
	var cands []hit
	for _, p := range files {
		if why := r.protection(p); why != "" {
			cands = append(cands, hit{p, why})
		}
	}
	inline := r.inlineTestChanges(ctx, t, files)
	if len(cands) == 0 && len(inline) == 0 {
		return nil
	}
	paths := make([]string, len(cands))
	for i, c := range cands {
		paths[i] = c.p
	}
	before, err := r.repo.Objects().InTree(ctx, r.expect, paths)
	if err != nil {
		return fmt.Errorf("verify %s: %w", t.ID, err)
	}
	bad := inline
	var vendor *gaterun.VendorUpdates // read on the first vendored file
	for _, c := range cands {
		existed := before[c.p]
		if !existed && (c.why == "a test file" || strings.HasPrefix(c.why, "named by gate ")) {
			if over := gaterun.TakesOverTests(relJoin(r.repo.Root, c.p)); over != "" {
				c.why = over
			} else {
				continue // new tests add to the judge
			}
		}
		if r.declaredFor(t, c.p, c.why) {
			continue
		}
		if strings.HasPrefix(c.p, "vendor/") && strings.HasPrefix(c.why, "read by gate ") {
			if vendor == nil {
				u := r.vendorUpdates(ctx)
				vendor = &u
			}
			if vendor.Allows(c.p) {
				continue // go get + go mod vendor
			}
		}
		if existed && strings.HasPrefix(c.why, "read by gate ") && r.judgeUnchanged(ctx, c.p) {
			continue
		}
		if existed && !alwaysAsk(c.why) && reformatted(ctx, r.repo, r.expect, c.p) {
			// gofmt -w ., black, prettier: the same tests (fmtonly.go)
			r.log.Issues = append(r.log.Issues, execlog.Issue{Task: string(t.ID), Time: r.o.now(),
				What: "reformatted " + c.p + ", which it does not declare", Resolution: "allowed: formatting only"})
			continue
		}
		verb := "modified"
		switch {
		case !existed:
			verb = "created"
		case !fileExists(relJoin(r.repo.Root, c.p)):
			verb = "deleted"
		}
		bad = append(bad, fmt.Sprintf("%s %s (%s)", verb, c.p, c.why))
	}
	if len(bad) == 0 {
		return nil
	}
	msg := "the task weakened the judge: " + strings.Join(bad, ", ")
	if kind == "agent" {
		hint := "declare the file in the task (Files: Modify: PATH) if changing it is the task, or restore it (git restore --source=HEAD --staged --worktree PATH) before `planx resume`; the plan, .planx.yaml and the log also need --yes"
		if len(inline) > 0 {
			hint = "name the test in the task's text if changing it is the task; " + hint
		}
		return &outcome.Failure{What: msg, Hint: hint}
	}
	r.warnIssue(t, msg+" (allowed: a "+kind+" task is the user's own)")
	return nil
}

// declaredFor reports whether the task may change a protected path: it
// declares the path, and, for the plan, the configuration and the log, the
// user confirms (--yes, or yes at the terminal).
func (r *runner) declaredFor(t *planparse.Task, p, why string) bool {
	if !slices.ContainsFunc(t.Files, func(f planparse.File) bool { return covers(f.Path, p) }) {
		return false
	}
	if !alwaysAsk(why) || r.o.Yes {
		return true
	}
	ask := r.ask()
	return ask != nil && ask(fmt.Sprintf("%s changed %s (%s), which it declares. Commit that change? [y/N] ", t.ID, p, why))
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
