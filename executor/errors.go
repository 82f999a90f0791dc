package executor

import "errors"

// Sentinel errors. Callers test them with errors.Is.
var (
	// ErrTaskFailed reports a task whose step, verification, gate or commit hook failed (exit 3).
	ErrTaskFailed = errors.New("task failed")
	// ErrInterrupted reports a run stopped by a signal (exit 130).
	ErrInterrupted = errors.New("interrupted")
	// ErrDrift reports a committed task whose text changed in the plan (exit 6).
	ErrDrift = errors.New("plan drift")
	// ErrRunInProgress reports another run holding the repository (exit 5).
	ErrRunInProgress = errors.New("run in progress")
	// ErrManual reports a run stopped on a manual task that a person must do (exit 3 is not
	// used for it: the run is healthy and waits for `planx resume`).
	ErrManual = errors.New("manual task")
	// ErrAgentMissing reports an agent preset whose program is not installed
	// (exit 2: the run was asked for something this machine cannot do).
	ErrAgentMissing = errors.New("agent not installed")
)
