package runstate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// Phases of a task attempt, saved so a resume after a crash knows whether the
// task's work is complete (verify, gates, commit) or must be redone (execute).
const (
	PhaseExecute = "execute"
	PhaseVerify  = "verify"
	PhaseGates   = "gates"
	PhaseCommit  = "commit"
)

// State is what planx keeps about a run outside the history, under
// .git/planx/ (per work tree, never committed). What is done is what git says
// is done: State only says where the run stopped and why.
type State struct {
	RunID    string     `json:"run_id"`
	PlanPath string     `json:"plan_path"` // repo-relative
	Topic    string     `json:"topic"`
	Branch   string     `json:"branch"`
	OrigHead gitops.SHA `json:"orig_head"` // HEAD before the rollback commit ("" when unborn)
	Base     gitops.SHA `json:"base"`      // the rollback commit
	// OrigIndex is a commit holding the index as it was before the run
	// (kept under refs/planx/runs/<id>/index): abort stages again what was
	// staged, byte for byte, not what the work tree has.
	OrigIndex gitops.SHA `json:"orig_index,omitempty"`
	// IndexAtHead: nothing was staged before the run (the index held
	// OrigHead's tree), so no OrigIndex was written; abort resets the
	// index to OrigHead instead.
	IndexAtHead bool `json:"index_at_head,omitempty"`
	// OrigMarks are what the index held before the run beyond its tree
	// (assume-unchanged, skip-worktree and intent-to-add entries), which
	// neither OrigIndex nor the rollback commit records; OrigHidden, kept
	// under refs/planx/runs/<id>/hidden, holds the work-tree bytes of the
	// assume-unchanged files, which git add does not see. Abort puts both
	// back.
	OrigMarks  *IndexMarks `json:"orig_marks,omitempty"`
	OrigHidden gitops.SHA  `json:"orig_hidden,omitempty"`
	// Kept numbers the refs under refs/planx/runs/<id>/kept/: bytes a
	// person wrote after a stop that a recovery command was about to drop
	// or write over (see keep.go).
	Kept    int              `json:"kept,omitempty"`
	Status  record.RunStatus `json:"status"`
	Current planparse.TaskID `json:"current,omitempty"`
	Phase   string           `json:"phase,omitempty"`
	Reason  string           `json:"reason,omitempty"`
	// Failed is what failed at the stop without the advice Reason adds
	// ("gate check failed (exit 1)"): a Planx-Finished note's words.
	Failed string `json:"failed,omitempty"`
	// Plan is the plan's tasks as they were when the run started, in
	// execution order: drift detection compares the plan against it.
	Plan []PlannedTask `json:"plan"`
	// ToRun lists the tasks this run set out to do, in order.
	ToRun []planparse.TaskID `json:"to_run"`
	// Skipped tasks; SkipPending are those no commit has recorded yet.
	Skipped     []planparse.TaskID `json:"skipped,omitempty"`
	SkipPending []planparse.TaskID `json:"skip_pending,omitempty"`
	// Finished says how a task after a stop was finished (by hand, retried,
	// run again, skipped), for its commit's Planx-Finished trailer (a
	// skipped task's goes on the commit that records the skip).
	Finished map[planparse.TaskID]string `json:"finished,omitempty"`
	// AttemptPre is a commit holding the work tree as the current attempt
	// found it; AttemptStop, its child, the tree when the attempt stopped,
	// kept under StopRef (see snapshot.go). Stops numbers the stop refs.
	AttemptPre  gitops.SHA `json:"attempt_pre,omitempty"`
	AttemptStop gitops.SHA `json:"attempt_stop,omitempty"`
	StopRef     string     `json:"stop_ref,omitempty"`
	Stops       int        `json:"stops,omitempty"`
	// AttemptSpace is the state directory of the task space the current
	// attempt's executor runs in over the work tree, set before it starts:
	// what it writes is in the space's layer until planx takes it into the
	// work tree, so that after a crash the work tree's changes since
	// AttemptPre are a person's, and the layer's are the attempt's (see
	// recovery.RecoverSpace). "" when the executor runs in the work tree.
	AttemptSpace string `json:"attempt_space,omitempty"`
	// HandConfig is the digest of .planx.yaml as a person left it after a
	// stop: their edit, which no task commit takes (package handconfig).
	HandConfig string       `json:"hand_config,omitempty"`
	Started    time.Time    `json:"started"`
	Updated    time.Time    `json:"updated"`
	Options    SavedOptions `json:"options"`
	// Pinned is the gates and settings pinned when the run started; nil
	// for a run started by a planx that did not pin them.
	Pinned *Pinned `json:"judge,omitempty"`
	// Hidden are the index entries flagged skip-worktree or
	// assume-unchanged when the run started (the user's, e.g. a sparse
	// checkout's); HiddenTooMany says there were too many to keep.
	Hidden        []string     `json:"hidden,omitempty"`
	HiddenTooMany bool         `json:"hidden_too_many,omitempty"`
	Log           *execlog.Log `json:"log"`
	// Wave lists the tasks of the parallel wave in flight (--jobs > 1),
	// WaveBase the commit their work trees were made from, and WaveDone
	// those whose work is done and kept in refs/planx/runs/<run>/work/<task>,
	// to be integrated, not run again, after a crash.
	Wave       []planparse.TaskID `json:"wave,omitempty"`
	WaveBase   gitops.SHA         `json:"wave_base,omitempty"`
	WaveDone   []planparse.TaskID `json:"wave_done,omitempty"`
	WaveNumber int                `json:"wave_number,omitempty"`
	// WaveInTheWay are the paths of a person's (edited, staged or
	// untracked) the wave in flight's landing stopped on rather than
	// write over them: told so, the next landing of that wave keeps them
	// under a ref and lands over them (wave.Landing).
	WaveInTheWay []string `json:"wave_in_the_way,omitempty"`
	// RecordsMark is set while a task's executor may run: planx's gate
	// and commit records written after it are the executor's forgeries
	// (see verify.Records). 0 when no executor is in flight.
	RecordsMark records.Mark `json:"records_mark,omitempty"`
	// Baseline is what the gates failed with on the base and the run
	// accepted (--accept-baseline-failures); nil when nothing was.
	Baseline *Baseline `json:"baseline,omitempty"`
	// saved is the encoding of the plan's tasks kept between saves (save.go).
	saved *savedBulk
}

// Baseline is the failing tests of each gate on the base, as the gate's
// own report or output named them before the first task ran. A task
// cannot add to it: it is fixed when the run starts.
type Baseline struct {
	Commit gitops.SHA          `json:"commit"` // the base the gates ran on
	Known  map[string][]string `json:"known"`  // gate name → failing test IDs
}

// PlannedTask is a task as the plan had it when the run started.
type PlannedTask struct {
	ID   planparse.TaskID `json:"id"`
	Hash string           `json:"hash"`
}

// SavedOptions are the run options a resume must reuse.
type SavedOptions struct {
	All         bool          `json:"all,omitempty"`
	NoVerify    bool          `json:"no_verify,omitempty"`
	StepTimeout time.Duration `json:"step_timeout,omitempty"`
	TaskTimeout time.Duration `json:"task_timeout,omitempty"`
	FlagGates   []string      `json:"flag_gates,omitempty"` // raw --gate values
	Format      string        `json:"format,omitempty"`
	Agent       string        `json:"agent,omitempty"`
	Attempts    int           `json:"attempts,omitempty"`
	StrictFiles bool          `json:"strict_files,omitempty"`
	Optional    bool          `json:"optional,omitempty"`
	Topic       string        `json:"topic,omitempty"`
	GatesIn     string        `json:"gates_in,omitempty"`
	Jobs        int           `json:"jobs,omitempty"`
}

func Path(repo *gitops.Repo) string { return filepath.Join(repo.PlanxDir(), "state.json") }

// runDir holds a run's step and gate output files.
func RunDir(repo *gitops.Repo, runID string) string {
	return filepath.Join(repo.PlanxDir(), "runs", runID)
}

// FinishedNotes are the Planx-Finished values a commit of t carries: t's
// own, then those of the skipped tasks it records (skipped); t is nil for
// a commit of the skips alone.
func (st *State) FinishedNotes(t *planparse.Task, skipped []planparse.TaskID) []string {
	var out []string
	ids := append([]planparse.TaskID{}, skipped...)
	if t != nil {
		ids = append([]planparse.TaskID{t.ID}, ids...)
	}
	for _, id := range ids {
		if how := st.Finished[id]; how != "" {
			out = append(out, string(id)+" "+how)
		}
	}
	return out
}

// Remove deletes the saved state: the run is over. What else the run kept
// under the planx directory (slot work trees, kept ignored files) is the
// caller's to drop first.
func Remove(repo *gitops.Repo) error {
	err := os.Remove(Path(repo))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("clear run state: %w", err)
	}
	return nil
}

// Covers says every one of ids (at least one) failed on the base in gate.
func (b *Baseline) Covers(gate string, ids []string) bool {
	if b == nil || len(ids) == 0 {
		return false
	}
	known, ok := b.Known[gate]
	if !ok {
		return false
	}
	for _, id := range ids {
		if !slices.Contains(known, id) {
			return false
		}
	}
	return true
}
