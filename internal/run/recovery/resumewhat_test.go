package recovery

import (
	"testing"

	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// What resume does with a stopped attempt, decided from literal stops.
func TestWhatResumeDoes(t *testing.T) {
	const (
		agent, shell, manual = planparse.KindAgent, planparse.KindShell, planparse.KindManual
		exec, verify         = runstate.PhaseExecute, runstate.PhaseVerify
	)
	for _, c := range []struct {
		name string
		s    stopped
		want resumeWith
	}{
		{"killed mid-step, a person edited the partial output", stopped{kind: agent, status: record.RunInterrupted, phase: exec, changed: true, edited: true}, refuseEdits},
		{"the same with --retry drops both", stopped{kind: agent, status: record.RunInterrupted, phase: exec, changed: true, edited: true, retry: true}, retryAfresh},
		{"killed mid-step, nobody edited", stopped{kind: shell, status: record.RunInterrupted, phase: exec, changed: true}, restartPartial},
		{"killed mid-step before writing, a person edited", stopped{kind: shell, status: record.RunInterrupted, phase: exec, edited: true}, restartPartial},
		{"a wave task's attempt runs again from its slot", stopped{kind: agent, status: record.RunFailed, phase: verify, inSlot: true, changed: true}, rerunFromSlot},
		{"a wave task's attempt killed mid-step with edits is refused", stopped{kind: agent, status: record.RunInterrupted, phase: exec, inSlot: true, changed: true, edited: true}, refuseEdits},
		{"a manual task waiting for the person", stopped{kind: manual, status: record.RunWaiting, phase: exec}, verifyPerson},
		{"a manual task in a slot waiting is the person's", stopped{kind: manual, status: record.RunWaiting, phase: exec, inSlot: true}, verifyPerson},
		{"a manual task retried", stopped{kind: manual, status: record.RunWaiting, phase: exec, retry: true}, retryAfresh},
		{"crashed after its executor finished", stopped{kind: agent, status: record.RunInterrupted, phase: verify, changed: true}, verifyCompleted},
		{"a failure fixed by hand", stopped{kind: agent, status: record.RunFailed, phase: verify, changed: true, edited: true, hand: true}, verifyFixed},
		{"a failure whose work a person made", stopped{kind: shell, status: record.RunFailed, phase: exec, edited: true, hand: true}, verifyFixed},
		{"a failure that left nothing, a person's edits not the task's", stopped{kind: shell, status: record.RunFailed, phase: exec, edited: true}, rerunEmpty},
		{"a refused commit fixed by hand", stopped{kind: shell, status: record.RunFailed, phase: runstate.PhaseCommit, changed: true, edited: true, hand: true}, verifyFixed},
		{"a failure that left nothing", stopped{kind: shell, status: record.RunFailed, phase: exec}, rerunEmpty},
		{"a failure retried", stopped{kind: shell, status: record.RunFailed, phase: verify, changed: true, retry: true}, retryAfresh},
	} {
		if got := whatResumeDoes(c.s); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
