package fault

import (
	"errors"
	"syscall"
	"testing"
)

// Only the point a full: hook names gets the full disk's error.
func TestFull(t *testing.T) {
	h := Hook("full:commit")
	if err := h.Full("commit"); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Full(commit) = %v, want ENOSPC", err)
	}
	if err := h.Full("write-log"); err != nil {
		t.Errorf("Full(write-log) = %v, want nil", err)
	}
	if err := Hook("commit").Full("commit"); err != nil {
		t.Errorf("a kill hook fills no disk: %v", err)
	}
}
