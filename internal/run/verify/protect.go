package verify

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// Protected paths are the judge: the files that decide whether a task is
// done. A task that could rewrite them could make any work pass. An agent
// task that modifies or deletes one fails ("the task weakened the judge");
// a shell or manual task, written or done by the user, gets a warning.

// Protect is what the run knows of the judge: which of the task's
// changed paths are part of it (the caller knows the plan, the
// configuration, the gates and what they run), and whether the person let
// declared changes of them pass already.
type Protect struct {
	// Why says why each protected path among the task's changes is
	// protected; a path it lacks is not.
	Why map[string]string
	// Yes is --yes: the user lets a task change the protected files it
	// declares (the Work's desk asks the person otherwise).
	Yes bool
}

// Judge fails an agent task that modified or deleted a protected path it
// did not declare, and warns for other executors. The plan counts only
// when changed beyond the task's own checkbox (the caller leaves it out of
// the files otherwise).
func (w Work) Judge(ctx context.Context, rules Protect) error {
	type hit struct{ p, why string }
	var cands []hit
	for _, p := range w.Files {
		if why := rules.Why[p]; why != "" {
			cands = append(cands, hit{p, why})
		}
	}
	inline := w.inlineTestChanges(ctx)
	if len(cands) == 0 && len(inline) == 0 {
		return nil
	}
	paths := make([]string, len(cands))
	for i, c := range cands {
		paths[i] = c.p
	}
	before, err := w.Repo.Objects().InTree(ctx, w.Base, paths)
	if err != nil {
		return fmt.Errorf("verify %s: %w", w.Task.ID, err)
	}
	var vendor *judge.VendorUpdates // read on the first vendored file: go mod vendor changes hundreds
	vendored := func(p string) bool {
		if vendor == nil {
			u := w.vendorUpdates(ctx)
			vendor = &u
		}
		return vendor.Allows(p)
	}
	bad, byHand := inline, []string(nil)
	for _, c := range cands {
		what := w.weakens(ctx, rules, c.p, c.why, before[c.p], vendored)
		switch {
		case what == "":
		case slices.Contains(w.Hand, c.p):
			byHand = append(byHand, what)
		default:
			bad = append(bad, what)
		}
	}
	if len(byHand) > 0 {
		// A person's edit after the stop is theirs to make, and no
		// executor's doing: said, with whose it is, never refused.
		hall.Warn(w.Desk, w.Task.ID, "changed by hand after the stop, in what the judge relies on: "+strings.Join(byHand, ", ")+" (your edit, committed with the task)")
	}
	if len(bad) == 0 {
		return nil
	}
	msg := "the task weakened the judge: " + strings.Join(bad, ", ")
	if w.Kind == planparse.KindAgent {
		hint := "declare the file in the task (Files: Modify: PATH) if changing it is the task, or restore it (git restore --source=HEAD --staged --worktree PATH) before `planx resume`; the plan, .planx.yaml and the log also need --yes"
		if len(inline) > 0 {
			hint = "name the test in the task's text if changing it is the task; " + hint
		}
		return &outcome.Failure{What: msg, Hint: hint}
	}
	hall.Warn(w.Desk, w.Task.ID, msg+" (allowed: a "+string(w.Kind)+" task is the user's own)")
	return nil
}

// weakens says how the task's change to the protected path p (why: why it
// is protected; existed: it was in the tree at the task's start) weakened
// the judge, "" when the change is allowed. vendored says whether a
// vendored file came with its module's requirement change.
func (w Work) weakens(ctx context.Context, rules Protect, p, why string, existed bool, vendored func(p string) bool) string {
	if !existed && (why == "a test file" || strings.HasPrefix(why, "named by gate ")) {
		// New tests add to the judge. One that takes the others over (a
		// TestMain that exits first, a conftest.py that skips them) is
		// seen by the judge's runs, not by its name: the tests as the
		// base has them run without it, and the canaries run beside it.
		return ""
	}
	switch {
	case w.declaredFor(rules, p, why):
		return ""
	case strings.HasPrefix(p, "vendor/") && strings.HasPrefix(why, "read by gate ") && vendored(p):
		return "" // go get + go mod vendor
	case existed && strings.HasPrefix(why, "read by gate ") && w.runnerUnchanged(ctx, p):
		return ""
	case existed && !alwaysAsk(why) && w.reformatted(ctx, p):
		// gofmt -w ., black, prettier: the same tests (fmtonly.go)
		w.Desk.Issue(w.Task.ID, "reformatted "+p+", which it does not declare", "allowed: formatting only")
		return ""
	}
	verb := "modified"
	switch {
	case !existed:
		verb = "created"
	case !fileExists(w.path(p)):
		verb = "deleted"
	}
	return fmt.Sprintf("%s %s (%s)", verb, p, why)
}

// alwaysAsk reports protections a declaration alone does not lift: the
// plan, the configuration and the log need the user's confirmation too.
func alwaysAsk(why string) bool {
	return why == "the plan" || why == "the planx configuration" || why == "the execution log"
}

// declaredFor reports whether the task may change a protected path: it
// declares the path, and, for the plan, the configuration and the log, the
// user confirms (--yes, or yes at the terminal).
func (w Work) declaredFor(rules Protect, p, why string) bool {
	if !AnyCovers(w.Task.Files, p) {
		return false
	}
	if !alwaysAsk(why) || rules.Yes {
		return true
	}
	return w.Desk.Ask(fmt.Sprintf("%s changed %s (%s), which it declares. Commit that change? [y/N] ", w.Task.ID, p, why))
}

// runnerUnchanged reports whether the task's change to a test runner's
// configuration p leaves what the runner runs alone
// (judge.ConfigUnchanged): p at the task's start against the work tree's.
func (w Work) runnerUnchanged(ctx context.Context, p string) bool {
	return judge.ConfigUnchanged(p, func(p string) ([]byte, []byte, error) {
		before, err := w.Repo.History().ShowFile(ctx, w.Base, p)
		if err != nil {
			return nil, nil, err
		}
		after, err := os.ReadFile(w.path(p))
		return before, after, err
	})
}

// vendorUpdates compares go.mod's requirements at the task's start and in
// the work tree (judge.VendorUpdates).
func (w Work) vendorUpdates(ctx context.Context) judge.VendorUpdates {
	before, _ := w.Repo.History().ShowFile(ctx, w.Base, "go.mod")
	after, _ := os.ReadFile(w.path("go.mod"))
	list, _ := os.ReadFile(w.path("vendor/modules.txt"))
	return judge.NewVendorUpdates(before, after, list)
}
