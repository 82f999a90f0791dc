package planparse

import "errors"

// Sentinel errors. Callers test them with errors.Is.
var (
	// ErrInvalid reports a plan with error diagnostics (exit code 4).
	ErrInvalid = errors.New("plan invalid")
	// ErrUnreadable reports a plan file that cannot be read or is not text (exit code 4).
	ErrUnreadable = errors.New("plan unreadable")
)
