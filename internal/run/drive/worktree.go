package drive

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/aside"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/internal/run/verify"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// Turn runs one task of the wave in the slot wt (wave.Runner) through the
// serial path's turn, in the slot: the same execute, verify, judge and
// gates, with the same attempts; its output lines and its writes to the
// run's log go through the wave's lock.
func (wv *wave) Turn(ctx context.Context, it *wavepkg.Task, wt *gitops.Repo) error {
	p, err := wv.slotPlace(wt)
	if err != nil {
		return err
	}
	tu, err := wv.r.newTurn(ctx, p, it.T, it.Log)
	if err != nil {
		return err
	}
	err = tu.attempts(ctx, false, false)
	it.Warnings = append(it.Warnings, tu.Warnings...)
	if err == nil {
		wv.r.out.Phase(it.T.ID, "commit") // its work, recorded in the slot
	}
	return err
}

// slot is the place of a wave task: a slot of the wave's pool, checked
// out afresh from the wave's base. It shares the run's log and output with
// the tasks running beside it, through the wave's lock, and keeps nothing
// of the task in the run's state: the wave records its tasks' marks,
// phases and ends for all of them at once (wave.exec).
type slot struct {
	wv   *wave
	repo *gitops.Repo
	// gitFile is the slot's .git file as planx made it: a task that
	// points it elsewhere would have planx judge another repository.
	gitFile []byte
}

// slotPlace is the place of a wave task in the slot wt.
func (wv *wave) slotPlace(wt *gitops.Repo) (place, error) {
	b, err := os.ReadFile(filepath.Join(wt.Root, ".git"))
	if err != nil {
		return nil, fmt.Errorf("the slot %s: %w", wt.Root, err)
	}
	return slot{wv: wv, repo: wt, gitFile: b}, nil
}

func (s slot) where() (*gitops.Repo, gitops.SHA) { return s.repo, s.wv.base }

// checks is the verify side of the run in the slot.
func (s slot) checks() verify.Tree {
	c := s.wv.r.checks()
	c.Repo, c.Base, c.Branch, c.Watched = s.repo, s.wv.base, "", ""
	// A slot is checked out afresh from the base: none of the user's
	// ignored files, hidden index entries or hand edits are there, and
	// the wave guards planx's records for all its tasks at once.
	c.Ignored, c.Hidden, c.HiddenOff = nil, nil, false
	c.Unstaged = nil
	// Nobody edits a slot's plan but its executor: its edit is judged as
	// a protected file's, not held as a person's.
	c.PersonEdits = false
	c.Records = verify.NewRecords(s.repo, nil)
	// What the task changed is read in the slot, not in the user's work
	// tree, which the wave does not touch until it lands: there the plan
	// would always seem untouched (never judged as the protected file it
	// is). (A runner's configuration and go.mod are read in c.Repo.)
	plan := *s.wv.r.pf
	plan.Abs = filepath.Join(s.repo.Root, filepath.FromSlash(plan.Rel))
	c.Plan = &plan
	// It records and says under the wave's lock, and asks nobody.
	c.Desk = hall.InWave(c.Desk, s.wv.mu)
	return c
}

// keeper runs the task's gates in the slot: they record nothing while
// the wave runs (its records are written once all its tasks have ended)
// and speak under the wave's lock.
func (s slot) keeper() *taskgate.Keeper {
	k := s.wv.r.keeper().InSlot(s.repo, s.wv.mu)
	// The task's checkouts (its slot, its gates') get their own copy of
	// the user's data the run keeps, so that what the task does to it
	// never reaches the user's files nor the wave's other tasks.
	r := s.wv.r
	k.Kept = &gaterun.Kept{Root: r.repo.Root, Dir: aside.KeptDir(r.repo), Aside: aside.Dir(r.repo, r.st.RunID, "")}
	return k
}

// execOptions are the run's execOptions in the slot: its processes print
// under the wave's lock, and record no pid (the wave's tasks run at once)
// and no crash point. An agent is confined to the slot as it is to the
// work tree.
func (s slot) execOptions() execute.Options {
	o := s.wv.r.execOptions()
	o.Dir, o.Repo, o.Slot, o.Shared = s.repo.Root, s.repo, true, s.wv.mu
	o.Fault, o.Pids = "", execute.Pids{}
	return o
}

// fault is none in a slot, whose crash points are the wave's.
func (s slot) fault() fault.Hook { return "" }

func (s slot) locked(f func()) {
	s.wv.mu.Lock()
	defer s.wv.mu.Unlock()
	f()
}

// The wave has saved which tasks run in the run's state, and marked
// planx's records, for all its tasks before they start; a task's phases
// are not saved: one stopped before its work is kept runs again from the
// start. The records' mark is the wave's, which the turn leaves alone.
func (s slot) begin(*turn, bool) error   { return nil }
func (s slot) phase(*turn, string) error { return nil }
func (s slot) mark() records.Mark        { return 0 }

// furnish gives the slot what the user's work tree holds that git does
// not (taskgate.Keeper.Furnish), before the task's executor runs there;
// undo takes back what must not reach its verification. The slot is bare
// when nothing was installed: checked out clean, it holds only the links.
func (s slot) furnish(ctx context.Context, tu *turn) (undo func(), bare bool, err error) {
	installed, undo, err := s.keeper().Furnish(ctx, tu.t, s.repo.Root, s.wv.r.ignored)
	return undo, len(installed) == 0, err
}

// fresh: the slot was checked out clean for the task, the agent left no
// ignored file (its watch saw none before it and none after) and verify
// staged every other file.
func (s slot) fresh(tu *turn) bool {
	return tu.kind == planparse.KindAgent && tu.Watch != nil && len(tu.Watch.Ignored) == 0 && len(tu.Outputs) == 0
}

// ignored are the user's work tree's, which furnish gave the slot.
func (s slot) ignored(*turn) []string { return s.wv.r.ignored }

// putBackIgnored has nothing to put back: the slot and its gates'
// checkouts got their own copy of the user's data (keeper), settled as
// each is done with it, and no put-back into the user's work tree runs
// while the wave's other tasks read it (one refilled a directory another
// task was emptying). The work tree's own check after the wave (the
// integration gate's, or the next serial task's) brings the run's list
// of entries up to date.
func (s slot) putBackIgnored(*planparse.Task) {}

// A wave task that failed runs again in the user's work tree on resume:
// no watch is kept to judge its slot's work again.
func (s slot) watched(*turn)                    {}
func (s slot) judged(*turn, verify.Tree, error) {}

// ended fails a task that rewrote its slot's .git file. What outlived its
// executor cannot be told from what the other tasks run: the wave ends it
// once they have all ended (wave.exec).
func (s slot) ended(_ *turn, err error) error {
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(s.repo.Root, ".git"))
	if err == nil && bytes.Equal(b, s.gitFile) {
		return nil
	}
	return &outcome.Failure{What: "the task changed its work tree's .git file, which points git at the repository planx judges"}
}
