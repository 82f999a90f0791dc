package runstart

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// Start is what a new run's records say of it.
type Start struct {
	Started time.Time
	LogDir  string // where the execution log goes, as configured (checked by NewRecord)
	Plan    *planparse.Plan
	PlanRel string // the plan's path, repo-relative
	Pinned  *runstate.Pinned
	Head    gitops.Head           // where the run starts
	Tasks   []*planparse.Task     // the tasks it runs
	Options runstate.SavedOptions // what resume runs the rest with
}

// NewRecord starts a run's two records in repo, the execution log and the
// run state (which holds the log), under a new run id.
func NewRecord(ctx context.Context, repo *gitops.Repo, s Start) (*runstate.State, error) {
	runID := newRunID(s.Started)
	logRel, err := logPath(ctx, repo, s.LogDir, execlog.FileName(s.Started, s.Plan.Topic), runID)
	if err != nil {
		return nil, err
	}
	log := &execlog.Log{
		Path:     logRel,
		Title:    s.Plan.Title,
		Topic:    s.Plan.Topic,
		PlanPath: s.PlanRel,
		RunID:    runID,
		Branch:   s.Head.Branch,
		Started:  s.Started,
		Status:   record.RunRunning,
		Total:    len(s.Tasks),
	}
	st := &runstate.State{
		RunID: runID, PlanPath: s.PlanRel, Topic: s.Plan.Topic, Branch: s.Head.Branch,
		OrigHead: s.Head.SHA, Status: record.RunRunning, Started: s.Started, Log: log, Pinned: s.Pinned,
		Options: s.Options,
	}
	for _, t := range s.Plan.Order() {
		st.Plan = append(st.Plan, runstate.PlannedTask{ID: t.ID, Hash: t.Hash()})
	}
	for _, t := range s.Tasks {
		st.ToRun = append(st.ToRun, t.ID)
	}
	return st, nil
}

// newRunID names a run by when it started, and a random suffix for two
// runs in the same second.
func newRunID(t time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return t.Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}
