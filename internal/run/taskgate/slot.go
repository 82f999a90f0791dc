package taskgate

import (
	"sync"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/handconfig"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// InSlot is the keeper of a task running in a slot of a parallel wave
// (repo), beside the wave's other tasks: its gates run and are judged as
// in the work tree, but it records nothing while the wave runs (the wave
// records all its tasks' gates once they have ended, so that no record is
// written under the records' mark), keeps its test reports to itself, and
// speaks under lock, which the run's log and output are shared under.
func (k *Keeper) InSlot(repo *gitops.Repo, lock sync.Locker) *Keeper {
	s := *k
	s.runDir, s.home = k.dir(), k.Repo.Root
	s.Repo, s.slot, s.lock = repo, true, lock
	s.reached, s.reports = k.reached, nil
	s.Fault, s.Desk, s.runDesk = "", hall.InWave(k.Desk, lock), k.Desk
	// What outlives a gate cannot be told from what the wave's other tasks
	// run: the wave ends it once they have all ended.
	s.Pids, s.Reaper = proc.Pids{}, proc.Reaper{}
	return &s
}

// userRoot is the user's work tree, whose ignored entries (node_modules/,
// a local config) the judge's checkouts link: a slot has none of its own.
func (k *Keeper) userRoot() string {
	if k.home != "" {
		return k.home
	}
	return k.Repo.Root
}

// dir is the run's directory: the gates' output, the test reports.
func (k *Keeper) dir() string {
	if k.runDir != "" {
		return k.runDir
	}
	return runstate.RunDir(k.Repo, k.State.RunID)
}

// unstaged are the paths a task's staging leaves out: a person's edit of
// the configuration in the user's work tree; none in a slot, checked out
// afresh from the base.
func (k *Keeper) unstaged() []string {
	if k.slot {
		return nil
	}
	return handconfig.Unstaged(k.Repo.Root, k.State)
}
