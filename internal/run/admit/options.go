package admit

import (
	"io"
	"time"

	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/prompt"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/planparse"
)

// Options configure a run. Zero values are sensible defaults.
type Options struct {
	PlanPath     string // the plan file, absolute or relative to the process's cwd
	Dir          string // -C: where to find the repository; default: the plan's directory
	Format       planparse.Format
	All          bool           // run every task again, done or not
	Subset       runplan.Subset // --only, --from, --to, --phase: part of the plan
	Optional     bool           // also run optional tasks ("- [ ]* 2.3", "(optional)")
	AcceptDrift  bool           // run done tasks whose text changed instead of stopping (exit 6)
	AcceptText   bool           // accept done tasks' changed text without running them again
	Topic        string         // overrides the plan's topic (rollback message, log name)
	RequireClean bool           // refuse a dirty tree instead of snapshotting it
	// Baseline runs the gates every task runs on the base before the
	// first task (taskgate.Keeper.Baseline); nil leaves it to .planx.yaml's baseline.
	Baseline *bool
	// AcceptBaselineFailures lets a run go on past a baseline whose gates
	// fail with named tests: those are recorded, and a task's gate that
	// fails with them alone passes with a warning. It implies Baseline.
	AcceptBaselineFailures bool
	// AllowUntrackedSecrets lets the rollback commit snapshot untracked
	// files that look like credentials (see runstart.CheckSecrets).
	AllowUntrackedSecrets bool
	AllowDetached         bool
	NoVerify              bool // skip commit hooks
	DryRun                bool
	StepTimeout           time.Duration
	TaskTimeout           time.Duration
	Gates                 []string // raw --gate name=command values
	LogDir                string   // default from config, else memory-bank/execute
	Agent                 string   // agent preset or command; overrides plan and config
	Attempts              int      // how many times an agent may try a task (default 1)
	StrictFiles           bool     // changes outside a task's declared files fail it
	NoCache               bool     // run every gate even when it passed on the same tree before
	// GatesIn says where the (non-fixing) gates run: taskgate.GatesClean, a
	// clean checkout of exactly the staged tree (a slot of the run);
	// taskgate.GatesTree, the work tree; "" chooses (see taskgate's cleanGates).
	GatesIn string
	// Yes consents to HIGH and CRITICAL steps without asking; without it
	// they need a confirmation on a terminal or a recorded approval.
	Yes             bool
	RequireApproval bool      // refuse a plan not approved as it stands
	In              io.Reader // answers to confirmations on a terminal
	// Jobs is how many tasks of a parallel wave run at once, each in its
	// own linked work tree; 0 or 1 runs every task in turn in the work tree.
	Jobs int
	// HandOff stops the run where a parallel wave would start, its state
	// saved as that wave in flight with no task done (what a kill there
	// leaves), and returns drive.ErrHandedOff: the wave's tasks then run on
	// other machines (planx ci task) and its landing resumes the run
	// (planx ci land). Waves of one task still run here, in the work tree.
	HandOff bool

	progress.Output
	Now func() time.Time
}

// NowUTC is the time now in UTC, by Now when it is set.
func (o *Options) NowUTC() time.Time {
	if o.Now != nil {
		return o.Now().UTC()
	}
	return time.Now().UTC()
}

// Ask returns how to put a yes/no question to the person at the terminal,
// or nil when there is nobody to ask (no terminal, CI mode, JSON output).
func (o Options) Ask() func(string) bool {
	if !o.Terminal || o.JSON || o.In == nil {
		return nil
	}
	return func(q string) bool { return prompt.YesNo(o.In, o.Out, q) }
}
