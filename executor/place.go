package executor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/checks"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/taskgate"
	"github.com/planx-dev/planx/verify"
)

// place is where a turn runs: the user's work tree (the serial loop) or
// a slot of a parallel wave. The task's path — execute, verify, the
// judge's checks, the gates — is the same in both; a slot differs in what
// it shares with the tasks running beside it: the run's log and output go
// through the wave's lock, and nothing of the run's state is saved by a
// task, which the wave records for all of them.
type place struct {
	repo *gitops.Repo // the work tree the task runs in
	base gitops.SHA   // the commit it starts from: where HEAD must be when it ends
	wave *wave        // the wave whose slot it is; nil: the user's work tree
	// gitFile is the slot's .git file as planx made it: a task that
	// points it elsewhere would have planx judge another repository.
	gitFile []byte
}

// serial is the place of the serial loop: the user's work tree, at the
// commit planx made last.
func (r *runner) serial() place { return place{repo: r.repo, base: r.expect} }

// slotPlace is the place of a wave task in the slot wt, from the wave's base.
func (wv *wave) slotPlace(wt *gitops.Repo) (place, error) {
	b, err := os.ReadFile(filepath.Join(wt.Root, ".git"))
	if err != nil {
		return place{}, fmt.Errorf("the slot %s: %w", wt.Root, err)
	}
	return place{repo: wt, base: wv.base, wave: wv, gitFile: b}, nil
}

// locked runs f under the wave's lock in a slot, as is in the work tree.
func (p place) locked(f func()) {
	if p.wave != nil {
		p.wave.mu.Lock()
		defer p.wave.mu.Unlock()
	}
	f()
}

// checks is the verify side of the run in the turn's place.
func (tu *turn) checks() checks.Tree {
	c := tu.r.checks()
	p := tu.at
	if p.wave == nil {
		return c
	}
	c.Repo, c.Base, c.Branch, c.Watched = p.repo, p.base, "", ""
	// A slot is checked out afresh from the base: none of the user's
	// ignored files, hidden index entries or hand edits are there, and
	// the wave guards planx's records for all its tasks at once.
	c.Ignored, c.Hidden, c.HiddenOff = nil, nil, false
	c.Unstaged = func() []string { return nil }
	c.Records = verify.NewRecords(p.repo, new(gitops.RecordsMark), func() error { return nil })
	// What the task changed is read in the slot, not in the user's work
	// tree, which the wave does not touch until it lands: there the plan
	// would always seem untouched (never judged as the protected file it
	// is), and a runner's configuration or go.mod unchanged.
	plan := *tu.r.pf
	plan.Abs = filepath.Join(p.repo.Root, filepath.FromSlash(plan.Rel))
	c.OnlyTicked = plan.OnlyTicked
	c.Unchanged = taskgate.JudgeUnchanged(p.repo, p.base)
	c.Vendor = func(ctx context.Context) gaterun.VendorUpdates { return taskgate.VendorUpdates(ctx, p.repo, p.base) }
	c.Ask = nil // nobody is asked in the middle of a wave
	issue, say := c.Issue, c.Say
	c.Issue = func(id planparse.TaskID, msg, resolution string) { p.locked(func() { issue(id, msg, resolution) }) }
	c.Say = func(id planparse.TaskID, msg string) { p.locked(func() { say(id, msg) }) }
	return c
}

// keeper runs the turn's gates in its place. In a slot they record
// nothing while the wave runs (its records are written once all its
// tasks have ended) and speak under the wave's lock.
func (tu *turn) keeper() *taskgate.Keeper {
	k := tu.r.keeper()
	p := tu.at
	if p.wave == nil {
		return k
	}
	return k.InSlot(p.repo, p.wave.mu)
}

// execOptions are the run's execOptions in the turn's place.
func (tu *turn) execOptions() execute.Options {
	if tu.at.wave == nil {
		return tu.r.execOptions()
	}
	return tu.at.wave.slotOptions(tu.at.repo.Root)
}

// furnish gives a slot what the user's work tree holds that git does not
// (taskgate.Keeper.Furnish), before the task's executor runs there; the
// func returned takes back what must not reach its verification. bare
// says the slot then holds nothing ignored or untracked but those links
// (nothing was installed): its watch need not look (watch). The work tree
// has all of it already.
func (tu *turn) furnish(ctx context.Context) (undo func(), bare bool, err error) {
	if tu.at.wave == nil {
		return func() {}, false, nil
	}
	installed, undo, err := tu.keeper().Furnish(ctx, tu.t, tu.at.repo.Root, tu.r.ignored)
	return undo, len(installed) == 0, err
}

// watch starts the turn's watch (verify.StartWatch): in a bare slot,
// checked out clean for the task, without walking it for what cannot be
// there.
func (tu *turn) watch(ctx context.Context, bare bool) (*verify.Watch, error) {
	agent := tu.kind == planparse.KindAgent
	if bare && agent {
		return verify.StartFreshWatch(ctx, tu.at.repo, tu.r.log.Path)
	}
	return verify.StartWatch(ctx, tu.at.repo, tu.r.log.Path, agent)
}

// fresh says the turn's work tree holds its staged work and nothing else:
// a slot checked out clean for the task, where the agent left no ignored
// file (its watch saw none before it and none after) and verify staged
// every other file. The work tree is never fresh: it holds the user's.
func (tu *turn) fresh() bool {
	return tu.at.wave != nil && tu.kind == planparse.KindAgent && tu.Watch != nil &&
		len(tu.Watch.Ignored) == 0 && len(tu.Outputs) == 0
}

// slotIntact fails a task that rewrote its slot's .git file.
func (tu *turn) slotIntact() error {
	p := tu.at
	if p.wave == nil {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(p.repo.Root, ".git"))
	if err == nil && bytes.Equal(b, p.gitFile) {
		return nil
	}
	return &outcome.Failure{What: "the task changed its work tree's .git file, which points git at the repository planx judges"}
}

// fault is the crash tests' hook in the place: none in a slot, whose
// crash points are the wave's.
func (p place) fault(r *runner) fault.Hook {
	if p.wave != nil {
		return ""
	}
	return r.fault
}
