// Package fault is the crash tests' hook: when PLANX_FAULT names a fault
// point, planx kills itself with SIGKILL there, so the tests can prove
// that `planx resume` recovers from a crash at any point. Every real run
// has no hook, and every method is then a no-op.
//
// "point:INT" (TERM, HUP) sends planx that signal at the point and goes
// on, as a Ctrl-C or a closed terminal arriving right then would;
// "point:run" runs the shell command in PLANX_FAULT_RUN there and goes on,
// as a person's git command at that moment would.
package fault

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Env names the hidden environment variable the hook is read from; RunEnv
// the command a "point:run" hook runs.
const (
	Env    = "PLANX_FAULT"
	RunEnv = "PLANX_FAULT_RUN"
)

// Points lists the fault points of a serial run in the order it meets them.
func Points() []string {
	return []string{
		"before-rollback", "after-rollback-stage", "after-rollback-commit", "after-rollback-ref",
		"task-start", "during-step", "after-steps", "after-verify", "during-gate", "after-gates",
		"after-tick", "after-log", "after-stage", "during-commit", "after-commit", "after-commit-state",
	}
}

// ParallelPoints lists the fault points only --jobs > 1 meets, in the
// order a wave meets them.
func ParallelPoints() []string {
	return []string{"after-wave-task", "after-wave", "after-stage-commit", "during-wave-gate", LandingPoints()[0], LandingPoints()[1], LandingPoints()[2], "after-advance"}
}

// LandingPoints lists the fault points of a wave's landing, in the order
// it meets them: before git updates the work tree, after it did and
// before the branch moved, after the branch moved.
func LandingPoints() []string {
	return []string{"before-advance", "after-read-tree", "after-branch"}
}

// Hook is the fault point this process dies at, "" for none.
type Hook string

// FromEnv reads the hook from PLANX_FAULT.
func FromEnv() Hook { return Hook(os.Getenv(Env)) }

// At kills the process when the hook names point, or does there what
// the hook says after the point's name.
func (h Hook) At(point string) {
	name, how, _ := strings.Cut(string(h), ":")
	if name != point {
		return
	}
	switch how {
	case "INT", "TERM", "HUP":
		sig := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP}[how]
		_ = syscall.Kill(os.Getpid(), sig)
	case "run":
		cmd := exec.Command("sh", "-c", os.Getenv(RunEnv))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		_ = cmd.Run()
	default:
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // SIGKILL is not instant; never go on past the point
	}
}

// Soon arms a kill a little later, for points inside a child process's
// run (a step, a gate, git commit), and returns a function that disarms it.
func (h Hook) Soon(point string, after time.Duration) func() {
	if string(h) != point {
		return func() {}
	}
	t := time.AfterFunc(after, func() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) })
	return func() { t.Stop() }
}

// fullPrefix marks a hook that fills the disk instead of killing:
// PLANX_FAULT=full:<point>.
const fullPrefix = "full:"

// Full returns the error a write gets from a full disk (ENOSPC) when the
// hook is "full:" followed by point, so the tests can prove that a full
// disk is a stop `planx resume` goes on from; nil otherwise.
func (h Hook) Full(point string) error {
	if string(h) != fullPrefix+point {
		return nil
	}
	return &os.PathError{Op: "write", Path: point, Err: syscall.ENOSPC}
}
