package record

import "errors"

// Errors both the writer and the reader of the run record report; each
// carries one exit code (internal/command/exit.go).
var (
	// ErrTaskFailed: a task's step, verification, gate or commit hook
	// failed, or a task commit in history does not prove its task (exit 3).
	ErrTaskFailed = errors.New("task failed")
	// ErrDrift: a committed task's text changed in the plan (exit 6).
	ErrDrift = errors.New("plan drift")
)
