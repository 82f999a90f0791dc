package taskgate

import (
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// furnished is what a checkout where task t's executor or gates run was
// given of the user's ignored entries (furnish): links into the user's
// work tree and, for a wave task (Keeper.Kept), its own copy of the
// user's data (gaterun.OwnIgnored), until undo.
type furnished struct {
	k    *Keeper
	t    *planparse.Task
	made []gaterun.Link
	own  *gaterun.Own
}

// furnish gives the checkout dir the user's ignored entries: a link to
// each (gaterun.LinkIgnored) or, in a wave, a copy of the user's data of
// the checkout's own, so that what a task does there never reaches the
// user's files nor the wave's other tasks.
func furnish(k *Keeper, t *planparse.Task, dir string, entries []string) *furnished {
	f := &furnished{k: k, t: t}
	if k.Kept != nil {
		f.own, entries = gaterun.OwnIgnored(k.Kept.Root, k.Kept.Dir, dir, entries)
	}
	f.made = gaterun.LinkIgnored(k.userRoot(), dir, entries)
	return f
}

// undo takes back what furnish gave, once, before anything checks the
// checkout (git would take a link for a new file; nothing may follow one
// afterwards): the links go, and the copy is settled (gaterun.Own.Settle,
// under the wave's lock: it may move a new file to the user's work tree)
// and what the task deleted or changed in it said, its version kept
// aside as the serial path keeps it.
func (f *furnished) undo() {
	if f == nil {
		return
	}
	gaterun.UnlinkIgnored(f.made)
	f.made = nil
	if f.own == nil {
		return
	}
	own, aside := f.own, f.k.Kept.AsideOf(string(f.t.ID))
	f.own = nil
	back, err := f.settle(own, aside)
	for _, msg := range gaterun.DescribeBack(back, "the task", aside, true) {
		hall.Warn(f.k.Desk, f.t.ID, msg)
	}
	if err != nil {
		hall.Warn(f.k.Desk, f.t.ID, "planx could not settle the task's own copy of your ignored files ("+err.Error()+"); yours were not touched")
	}
}

// settle settles own under the wave's lock, which the warnings about it
// then take in turn (hall.InWave).
func (f *furnished) settle(own *gaterun.Own, aside string) ([]gaterun.Back, error) {
	if l := f.k.lock; l != nil {
		l.Lock()
		defer l.Unlock()
	}
	back, _, err := own.Settle(aside)
	return back, err
}
