package taskgate

import (
	"strings"
	"sync"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// Where a task's (non-fixing) gates run: Options.GatesIn of the executor.
const (
	GatesClean = "clean" // a clean checkout of exactly the staged tree
	GatesTree  = "tree"  // the work tree
)

// Keeper runs the gates of a run's tasks. It is built once the run's state
// is there, from the run's values and seams; the seams are what the run
// shares with its other parts, so that a caller may wrap them in a lock.
type Keeper struct {
	Repo  *gitops.Repo    // the repository the gates judge
	State *runstate.State // the run's: its id, base, baseline and log
	Gates []gates.Gate    // the run's gates
	Env   []string        // the gates' environment
	// ConfigEnv is the configured environment, part of a gate's hash.
	ConfigEnv  []string
	Overridden map[string]bool // the gates a --gate flag replaced (Overridden)
	PlanRel    string          // the plan's path, repo-relative
	NoCache    bool            // --no-cache: every gate runs
	GatesIn    string          // GatesClean, GatesTree or "" (cleanGates)
	// WorktreeSetup installs dependency environments afresh in a clean
	// checkout (.planx.yaml's worktree_setup), each step within StepTimeout.
	WorktreeSetup string
	StepTimeout   time.Duration
	// Manifests name the dependency manifests worktree_setup reads
	// (verify.DepManifests): it runs again in a slot when one changed.
	Manifests []string
	// HiddenTests is the hidden tests' directory, checked ("" for none):
	// added to the judge's checkout of an agent task after its gates
	// passed (hidden.go).
	HiddenTests string
	// HiddenRef, when set, is the ref of the repository at HiddenTests
	// whose files are the hidden tests.
	HiddenRef string
	// BaselineOn: the run starts with a baseline (BaselineOn).
	BaselineOn bool
	// AcceptBaselineFailures: a baseline that fails with named tests
	// records them as known instead of stopping the run.
	AcceptBaselineFailures bool
	Out                    *progress.Progress
	Fault                  fault.Hook
	// Desk is where the gates' warnings and issues are recorded and
	// said, and the run saved (hall.InWave in a slot).
	Desk hall.Desk
	// Pids are the run's pid files, which track a gate's process group
	// (none in a slot: one file cannot name a wave's tasks at once).
	Pids proc.Pids
	// Reaper kills what a gate left running outside its group (the zero
	// Reaper in a slot: the wave reaps once its tasks have all ended).
	Reaper proc.Reaper
	// Pool is the run's pool of linked work trees: the gates' and the
	// judge's clean checkouts.
	Pool *wavepkg.Pool
	// Spaces are the judge's spaces (gaterun.Spaces), nil for none.
	Spaces *gaterun.Spaces
	// Kept, when set (a wave task's keeper), is where the run keeps the
	// user's ignored data: the task's checkouts get their own copy of it
	// rather than links into the work tree the wave's other tasks share
	// (furnish).
	Kept *gaterun.Kept

	reached gaterun.Reach    // read on first use (Reach)
	reports *gaterun.Reports // the run's test reports by commit (Reports)
	// slot: the keeper of a task in a wave's slot (InSlot), whose output
	// goes under lock; runDir is the run's directory, not the slot's.
	slot   bool
	lock   sync.Locker
	runDir string
	home   string // the user's work tree (userRoot)
	// runDesk is the run's own desk, which a slot's gate runs are handed:
	// they tell it while they hold lock (gaterun.Options.Lock).
	runDesk hall.Desk
}

// Book is the run's gate and commit records.
func (k *Keeper) Book() ledger.Book {
	return ledger.Book{Repo: k.Repo, RunID: k.State.RunID, Env: k.ConfigEnv, Defs: k.Gates,
		PlanRel: k.PlanRel, LogPath: k.State.Log.Path, NoCache: k.NoCache, Now: k.Desk.Now, Out: k.Out}
}

// GateRun is what every gate run of this run shares.
func (k *Keeper) GateRun() gaterun.Options {
	desk := k.Desk
	if k.lock != nil {
		desk = k.runDesk // the slot's desk would take the lock the run holds
	}
	return gaterun.Options{Root: k.Repo.Root, OutDir: k.dir(), Env: k.Env, Out: k.Out,
		Pids: k.Pids, Desk: desk, Overridden: k.Overridden, Baseline: k.State.Baseline, Lock: k.lock,
		Home: k.userRoot(), Spaces: k.Spaces}
}

// Overridden reports which gates a --gate flag (flags) replaced: the config
// or the plan defines one of that name. Their trailers say so (`test=pass
// 12ms overridden`), so verify can tell a gate weakened on the command line.
func Overridden(configured []gates.Gate, planned []planparse.GateDecl, flags []string) map[string]bool {
	out := map[string]bool{}
	defined := map[string]bool{}
	for _, g := range configured {
		defined[g.Name] = true
	}
	for _, d := range planned {
		defined[strings.TrimSpace(d.Name)] = true
	}
	for _, f := range flags {
		if g, err := gates.ParseFlag(f); err == nil && defined[g.Name] {
			out[g.Name] = true
		}
	}
	return out
}
