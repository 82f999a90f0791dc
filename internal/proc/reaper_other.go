//go:build !linux

package proc

import (
	"errors"
	"fmt"
)

// BecomeSubreaper is Linux only: elsewhere a process an executor detaches
// from its process group (setsid) is not found; only the group is killed.
func BecomeSubreaper() error {
	return fmt.Errorf("become child subreaper: %w", errors.ErrUnsupported)
}

// KillDetached finds nothing where BecomeSubreaper is unsupported.
func KillDetached() []string { return nil }

// KillMarked finds nothing without /proc: elsewhere only the recorded
// process group of a killed planx's step or agent is killed.
func KillMarked(string) []string { return nil }
