package verify

import (
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/planparse"
)

// Tree is the verify side of a run in one work tree: the place it
// checks, the run's rules and state it reads, and the desk through which
// it records issues, speaks and asks. The serial loop builds one on the
// user's repository; a wave's task gets the wave's desk (hall.InWave).
type Tree struct {
	Repo  *gitops.Repo
	Base  gitops.SHA // where HEAD must be when a task ends: planx's last commit
	RunID string
	// Watched names the run whose refs the git directory's watch reads
	// (gitops.Config.Guard): RunID in the user's work tree; none ("") in a
	// wave's slot, where the wave records each task's work under the run's
	// refs while the others run.
	Watched string
	Branch  string // the run's branch
	// Rules are the run's protection rules. Verify needs Rules.Reached,
	// which the caller reads once per run (taskgate.Keeper.Reach).
	Rules Rules
	Yes   bool // --yes
	// Ignored are the ignored entries that existed when the run (or
	// resume) started.
	Ignored []string
	// Hidden is the run's HiddenBaseline (HiddenOff: too many to keep);
	// GatesInTree: the gates run in the work tree.
	Hidden      []string
	HiddenOff   bool
	GatesInTree bool
	Strict      bool // --strict-files
	// Unstaged are the paths a task's staging leaves out: .planx.yaml
	// while it holds a person's edit made after a stop
	// (handconfig.Unstaged), read when the Tree is made (the runner makes
	// the one Verify takes once the executor has ended).
	Unstaged []string
	// Plan is the plan file as this work tree holds it: a change of it
	// that is the task's own checkbox alone is no evidence of work.
	Plan *planfile.File
	// PersonEdits: a person may edit this work tree while a task runs
	// (the user's, not a wave's slot, which only its executor touches).
	// Their edit of the plan, or of a file an agent in a task space did
	// not write, is held out of the task's commit.
	PersonEdits bool
	// Dirty are the paths changed in the work tree before the task
	// started (a hook's leftovers, a resumed tree's).
	Dirty []string
	// Records guards planx's records with the run state's mark.
	Records Records
	// Desk records the findings in the run's log, says them and asks the
	// person.
	Desk hall.Desk
}

// warn records a warning in the log and says it.
func (c Tree) warn(id planparse.TaskID, msg string) { hall.Warn(c.Desk, id, msg) }

// Work is task t's work, in the work tree, as each check reads it.
func (c Tree) Work(t *planparse.Task, kind planparse.Kind, files []string) Work {
	return Work{Repo: c.Repo, Root: c.Repo.Root, Base: c.Base, Task: t, Kind: kind, Files: files,
		Desk: c.Desk}
}

// Protect is what Work.Judge asks of the run: why each of files
// (a task's changes) is protected, and whether --yes lets a declared
// change of one pass.
func (c Tree) Protect(files []string) Protect {
	why := map[string]string{}
	for _, p := range files {
		if w := c.Rules.Why(p); w != "" {
			why[p] = w
		}
	}
	return Protect{Why: why, Yes: c.Yes}
}

// Outside records, in the log and on screen, the files a task changed
// outside its declared ones (allowed: no --strict-files), those a person
// changed by hand after a stop (hand) said to be theirs, and returns the
// commit's Planx-Warning value for them.
func (c Tree) Outside(t *planparse.Task, outside, hand []string) string {
	msg := OutsideMessage(outside)
	var theirs []string
	for _, p := range outside {
		if slices.Contains(hand, p) {
			theirs = append(theirs, p)
		}
	}
	if len(theirs) > 0 {
		msg += " (changed by hand after the stop: " + strings.Join(theirs, ", ") + ")"
	}
	c.Desk.Issue(t.ID, msg, "allowed: --strict-files not set")
	c.Desk.Say(t.ID, msg)
	return "outside-declared=" + strings.Join(outside, ",")
}
