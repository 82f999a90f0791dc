package drive

import (
	"github.com/planx-dev/planx/internal/run/handconfig"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/planparse"
)

// checks is the verify side of the run in the user's work tree
// (verify.Tree): the run's rules and state as values, and its log, its
// output and the person at the terminal behind the run's desk.
func (r *runner) checks() verify.Tree {
	c := verify.Tree{Repo: r.repo, Base: r.expect, RunID: r.st.RunID, Watched: r.st.RunID, Branch: r.st.Branch,
		Rules: verify.Rules{Plan: r.planRel, Reached: r.gateKeeper.Reached()},
		Yes:   r.o.Yes, Ignored: r.ignored,
		Hidden: r.st.Hidden, HiddenOff: r.st.HiddenTooMany, GatesInTree: r.o.GatesIn == GatesTree, Strict: r.o.StrictFiles,
		Unstaged: handconfig.Unstaged(r.repo.Root, r.st),
		Plan:     r.pf,
		// The user's work tree: a person may edit it while a task runs.
		PersonEdits: true,
		Dirty:       r.dirty,
		Records:     verify.NewRecords(r.repo, r.st),
		Desk:        r.desk()}
	if r.Setup != nil {
		c.Rules.Gates, c.Rules.Protect, c.Rules.Unprotect = r.Gates, r.Config.Protect, r.Config.Unprotect
	}
	if r.log != nil {
		c.Rules.Log = r.log.Path
	}
	return c
}

// warnIssue records a warning in the log and says it.
func (r *runner) warnIssue(t *planparse.Task, msg string) {
	r.log.Issues = append(r.log.Issues, r.issue(t.ID, msg))
	r.out.Warn(t.ID, msg)
}
