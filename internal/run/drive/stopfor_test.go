package drive

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
)

// How an error stops the run, decided from literal errors.
func TestStopFor(t *testing.T) {
	fail := &outcome.Failure{What: "gate go test failed", Tail: "FAIL x", See: []string{"run.log"}}
	internal := errors.New("read the plan: permission denied")
	for _, c := range []struct {
		name        string
		err         error
		interrupted bool
		status      record.RunStatus
		kind        error
		failed      string
		own         bool
	}{
		{"a failure", fmt.Errorf("T001: %w", fail), false, record.RunFailed, ErrTaskFailed, "gate go test failed", false},
		{"a failure while interrupted is still the failure", fail, true, record.RunFailed, ErrTaskFailed, "gate go test failed", false},
		{"a manual task", ErrManual, false, record.RunWaiting, ErrManual, "", false},
		{"a signal", context.Canceled, false, record.RunInterrupted, ErrInterrupted, "", false},
		{"any error once the run is cancelled", internal, true, record.RunInterrupted, ErrInterrupted, "", false},
		{"a full disk", &fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, false, record.RunFailed, ErrTaskFailed, "the disk is full (write x: no space left on device); free some space, then `planx resume` goes on from the task's work as it stands", false},
		{"git's words for a full disk", errors.New("fatal: unable to write new index file: No space left on device"), false, record.RunFailed, ErrTaskFailed, "", false},
		{"planx's own error", internal, false, record.RunFailed, internal, "", true},
	} {
		s := stopFor(c.err, c.interrupted)
		if s.status != c.status || !errors.Is(s.kind, c.kind) || s.own != c.own {
			t.Errorf("%s: status %s, kind %v, own %v; want %s, %v, %v", c.name, s.status, s.kind, s.own, c.status, c.kind, c.own)
		}
		if c.failed != "" && s.failed != c.failed {
			t.Errorf("%s: failed %q, want %q", c.name, s.failed, c.failed)
		}
	}
	if s := stopFor(fail, false); s.tail != "FAIL x" || len(s.see) != 1 {
		t.Errorf("a failure's output and files to see are kept: %+v", s)
	}
}
