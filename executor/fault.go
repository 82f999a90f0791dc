package executor

import (
	"os"
	"syscall"
	"time"
)

// faultEnv names a hidden environment hook for the crash-safety tests: when
// it equals a fault point's name, planx kills itself with SIGKILL there, so
// the tests can prove that `planx resume` recovers from a crash at any point.
const faultEnv = "PLANX_FAULT"

// FaultPoints lists the fault points in the order a run meets them.
func FaultPoints() []string {
	return []string{
		"before-rollback", "after-rollback-stage", "after-rollback-commit", "after-rollback-ref",
		"task-start", "during-step", "after-steps", "after-verify", "during-gate", "after-gates",
		"after-tick", "after-log", "after-stage", "during-commit", "after-commit", "after-commit-state",
	}
}

// faultHook is the fault point the hook names for this process, "" for
// none (every real run).
type faultHook string

// at kills the process when the hook names point.
func (f faultHook) at(point string) {
	if string(f) == point {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // SIGKILL is not instant; never go on past the point
	}
}

// soon arms a kill a little later, for points inside a child process's
// run (a step, a gate, git commit), and returns a function that disarms it.
func (f faultHook) soon(point string, after time.Duration) func() {
	if string(f) != point {
		return func() {}
	}
	t := time.AfterFunc(after, func() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) })
	return func() { t.Stop() }
}
