package drive

import (
	"errors"

	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// Sentinel errors. Callers test them with errors.Is.
var (
	// ErrTaskFailed reports a task whose step, verification, gate or commit hook failed (exit 3).
	ErrTaskFailed = record.ErrTaskFailed
	// ErrInterrupted reports a run stopped by a signal (exit 130).
	ErrInterrupted = errors.New("interrupted")
	// ErrDrift reports a committed task whose text changed in the plan (exit 6).
	ErrDrift = record.ErrDrift
	// ErrRunInProgress reports another run holding the repository (exit 5).
	ErrRunInProgress = runstate.ErrRunInProgress
	// ErrManual reports a run stopped on a manual task that a person must do (exit 3 is not
	// used for it: the run is healthy and waits for `planx resume`).
	ErrManual = errors.New("manual task")
	// ErrAgentMissing reports agent tasks with no agent configured, or an
	// agent whose program is not installed; found before the rollback commit.
	ErrAgentMissing = execute.ErrAgentMissing
	// ErrHandedOff reports a run stopped before a parallel wave, handed
	// off to CI jobs (Options.HandOff): not a failure.
	ErrHandedOff = errors.New("handed off: the wave runs in CI jobs")
)
