package drive

import (
	"context"
	"fmt"
	"os"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/run/aside"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/internal/sandbox"
	"github.com/planx-dev/planx/planparse"
)

// place is where a turn runs: the user's work tree (the serial loop,
// workTree) or a slot of a parallel wave (slot). The task's path —
// execute, verify, the judge's checks, the gates — is the turn's, the
// same in both; a place says once how the run's mechanisms work there
// (tools), what it keeps of the task as the turn goes (keeping) and what
// it does with the user's ignored entries (furnishing).
type place interface {
	// where is the work tree the task runs in and the commit it starts
	// from: where HEAD must be when it ends.
	where() (*gitops.Repo, gitops.SHA)
	tools
	keeping
	furnishing
}

// tools are the run's mechanisms as a task uses them in its place.
type tools interface {
	checks() verify.Tree          // the verify side of the run (verify.Tree)
	keeper() *taskgate.Keeper     // what runs the task's gates
	execOptions() execute.Options // what the task's processes run with
	fault() fault.Hook            // the crash tests' hook at the turn's points
	locked(f func())              // f under the lock of what the place shares
}

// keeping is what a place keeps of the task in the run's state, log and
// records at the turn's steps.
type keeping interface {
	// begin comes before an attempt (already: its work is in the tree).
	begin(tu *turn, already bool) error
	// watched comes once an agent's watch is noted, before it runs.
	watched(tu *turn)
	// ended comes once the executor ended (err: how); it says whether
	// the attempt goes on.
	ended(tu *turn, err error) error
	// judged comes once an agent's work is verified (err: what verify
	// found), unless the run was interrupted.
	judged(tu *turn, c verify.Tree, err error)
	// phase comes when the attempt gets to phase p.
	phase(tu *turn, p string) error
	// mark is the records' mark the executor ran under.
	mark() records.Mark
}

// furnishing is what a place does with the user's ignored entries (a
// local config, node_modules/), which git does not hold.
type furnishing interface {
	// furnish gives the place those entries before the executor runs;
	// undo takes back what must not reach its verification. bare says the
	// place then holds nothing ignored or untracked but what furnish
	// linked in: its watch need not look (turn.watch).
	furnish(ctx context.Context, tu *turn) (undo func(), bare bool, err error)
	// ignored are the entries the task's gates are given.
	ignored(tu *turn) []string
	// fresh says the place holds the task's staged work and nothing else
	// once it is verified: its gates may run there (taskgate.Task.Fresh).
	fresh(tu *turn) bool
	// putBackIgnored comes after the executor and after the gates.
	putBackIgnored(t *planparse.Task)
}

// workTree is the place of the serial loop: the user's work tree, at the
// commit planx made last. The task is the run's only one: its phases,
// its records' mark and its watch go into the run's state as it goes, so
// that a crash anywhere can be resumed.
type workTree struct {
	r    *runner
	base gitops.SHA
}

// serial is the place of the serial loop.
func (r *runner) serial() place { return workTree{r: r, base: r.expect} }

// In the work tree the run's mechanisms are the runner's own, and nothing
// runs beside the task to share a lock with.
func (w workTree) where() (*gitops.Repo, gitops.SHA) { return w.r.repo, w.base }
func (w workTree) checks() verify.Tree               { return w.r.checks() }
func (w workTree) keeper() *taskgate.Keeper          { return w.r.keeper() }
func (w workTree) execOptions() execute.Options {
	// The steps run in the task space the run state names (stepSpace).
	o := w.r.execOptions()
	o.StepSpace, o.Start, o.Own = w.r.st.AttemptSpace, w.r.st.AttemptPre, []string{w.r.log.Path}
	return o
}
func (w workTree) fault() fault.Hook  { return w.r.fault }
func (w workTree) locked(f func())    { f() }
func (w workTree) mark() records.Mark { return w.r.st.RecordsMark }

// begin saves which task runs and how far it is before it runs, and
// marks planx's records before an agent.
func (w workTree) begin(tu *turn, already bool) error {
	r, t, kind := w.r, tu.t, tu.kind
	r.st.Phase = runstate.PhaseExecute
	if already {
		r.st.Phase = runstate.PhaseVerify
	}
	// The state must say which task runs before it runs. The log on disk
	// shows it too for work a person may watch for a while (an agent, a
	// manual task) and at the run's first task (so that the task's git add
	// stages the new file); a shell task's section is otherwise written when
	// it commits or stops, and after a crash resume rewrites the log from
	// the state.
	save := r.books().save
	if _, err := os.Stat(fsutil.Under(r.repo.Root, r.log.Path)); err == nil && tu.cheapRedo {
		save = func() error { return r.st.Save(r.repo) }
	}
	// An agent's work is guarded (verify.Records); a shell task's steps
	// are the plan's own, shown by --dry-run and approved, and the mark's
	// wait (~3 ms) would be most of a quick step's cost.
	if !already && kind == planparse.KindAgent {
		if err := r.checks().Records.Mark(t); err != nil {
			return err
		}
	}
	if err := save(); err != nil {
		return err
	}
	r.fault.At("task-start")
	return nil
}

// watched saves what planx noted before the agent runs, for a resume
// that judges its work (verify.Attempt.Started).
func (w workTree) watched(tu *turn) {
	tu.Started(w.r.checks(), tu.t.ID, w.r.st.RecordsMark)
}

// judged settles the saved watch (verify.Attempt.Judged).
func (w workTree) judged(tu *turn, c verify.Tree, err error) { tu.Judged(c, tu.t.ID, err) }

// ended ends what outlived the executor, puts back the user's ignored
// files it removed and checks that it left planx's records alone.
func (w workTree) ended(tu *turn, err error) error {
	if msg := w.r.reaper.Detached(); msg != "" {
		w.r.warnIssue(tu.t, msg)
	}
	w.putBackIgnored(tu.t)
	if rerr := w.settleRecords(tu); rerr != nil {
		return rerr // a forgery outweighs how the executor ended
	}
	return err
}

// settleRecords checks that the executor left planx's records alone
// (verify.Records).
func (w workTree) settleRecords(tu *turn) error {
	r := w.r
	tu.NoteMark(r.st.RecordsMark)
	records := r.checks().Records
	if lvl := sandbox.Level(tu.lt.Sandbox); lvl == sandbox.Full || lvl == sandbox.Overlay {
		// It could not write the git directory: what changed there since
		// the mark is another run's.
		return records.Forget()
	}
	return records.Untouched(tu.t)
}

// phase records how far the attempt got. Only agent and manual work is
// worth saving a phase for: after a crash a shell task's steps simply run
// again from a clean slate (the phase stays "execute"), which costs less than
// an fsynced state write at every phase of every task.
func (w workTree) phase(tu *turn, p string) error {
	r := w.r
	if r.st.Phase == runstate.PhaseExecute && tu.cheapRedo {
		return nil
	}
	r.st.Phase = p
	return r.st.Save(r.repo)
}

// furnish gives nothing: the work tree has the user's ignored entries.
func (w workTree) furnish(context.Context, *turn) (func(), bool, error) {
	return func() {}, false, nil
}

// fresh is never so: the work tree holds the user's files beside the
// task's work.
func (w workTree) fresh(*turn) bool { return false }

// ignored are the entries before the agent ran, when the turn saw it
// start; else those of the run.
func (w workTree) ignored(tu *turn) []string {
	if tu.Watch != nil {
		return tu.Watch.Ignored
	}
	return w.r.ignored
}

// putBackIgnored puts back the user's ignored files an executor or a gate
// removed (aside.Check).
func (w workTree) putBackIgnored(t *planparse.Task) {
	w.r.ignored = aside.Check(w.r.repo, w.r.st.RunID, w.r.ignored, w.r.desk(), t)
}

// nameStepSpace names in the run state st, before task t's attempt
// starts in the work tree root, the task space its steps will run in
// (execute.StepSpaces): where jail finds spaces, a shell task's steps
// that are about to run (kind is t's executor). The state is saved with
// it when the attempt begins (workTree.begin).
func nameStepSpace(st *runstate.State, jail *execute.Jail, kind planparse.Kind, t *planparse.Task, root string, already bool) error {
	// The last attempt's end is recorded (committed or stopped): what its
	// steps wrote is no longer needed apart.
	execute.DropStepSpaces(st.RunID)
	if already || kind != planparse.KindShell || len(t.Steps) == 0 || !jail.StepSpaces(root) {
		return nil
	}
	dir, err := execute.StepSpaceDir(st.RunID, t.ID, root)
	if err != nil {
		return fmt.Errorf("%s: task space: %w", t.ID, err)
	}
	st.AttemptSpace = dir
	return nil
}
