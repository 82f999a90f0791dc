package command

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/approval"
	"github.com/planx-dev/planx/internal/review"
	"github.com/planx-dev/planx/internal/run/drive"
	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// Exit codes, listed in `planx --help`, the man page and README.md.
const (
	ExitOK          = 0
	ExitInternal    = 1
	ExitUsage       = 2
	ExitTaskFailed  = 3
	ExitPlanInvalid = 4
	ExitRepoState   = 5
	ExitDrift       = 6
	ExitNotApproved = 7
	ExitNotFound    = 8
	ExitWaitingCI   = 9
	ExitInterrupted = 130
)

const exitCodeHelp = `EXIT CODES:
   0    ok (also: the run waits at a manual task, outside CI)
   1    internal error
   2    usage error (unknown command or flag, wrong arguments, a run id prefix several runs share; also: the agent is not installed)
   3    a task or a gate failed
   4    the plan is invalid (also: no task at all, or a task's only shell block lacks run)
   5    repository state (dirty, locked, detached, operation in progress, run in progress, no git identity)
   6    plan drift (a committed task's text changed, or the plan changed since it was approved)
   7    refused: HIGH or CRITICAL steps without --yes, a confirmation or an approval
   8    not found (no such task commit or revision)
   9    in CI (--ci or CI=true): the run stopped at a manual task, which nobody will do there
   130  interrupted
`

// errUsage marks command-line mistakes.
var errUsage = errors.New("usage")

// errWaitingCI marks a run stopped at a manual task in CI mode, where
// nobody will do it: a green job would hide a half-done plan.
var errWaitingCI = errors.New("waiting for a person in CI")

// inCI turns a stop at a manual task into a failure in CI mode.
func inCI(ci bool, err error) error {
	if ci && errors.Is(err, drive.ErrManual) {
		return fmt.Errorf("%w: %w", errWaitingCI, err)
	}
	return err
}

// exitCode is the one mapping from errors to process exit codes.
func exitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errWaitingCI):
		return ExitWaitingCI
	case errors.Is(err, drive.ErrManual):
		// Like `git rebase -i` stopping at "edit": the run is healthy and waits.
		return ExitOK
	case errors.Is(err, errUsage):
		return ExitUsage
	// urfave/cli's own errors ("No help topic for 'x'" from planx help x)
	// are about the command line. A child's exit (*exec.ExitError, inside
	// every failed git command's error) has an ExitCode method too, and is
	// no usage error.
	case cliExit(err):
		return ExitUsage
	case errors.Is(err, drive.ErrInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, drive.ErrDrift):
		return ExitDrift
	// A plan edited since `planx approve` is no longer the text a person
	// accepted: drift, like a committed task whose text changed.
	case errors.Is(err, approval.ErrChanged):
		return ExitDrift
	// Risky steps nobody consented to: nothing ran and nothing is wrong
	// with the repository, so neither 3 nor 5; the fix is --yes, a "y" at
	// the prompt, or `planx approve` (or fetching refs/planx/approvals/*).
	case errors.Is(err, approval.ErrNotApproved):
		return ExitNotApproved
	// The agent named by --agent, the plan or .planx.yaml cannot start: a
	// setting to correct before anything ran, like a bad flag value.
	case errors.Is(err, drive.ErrAgentMissing):
		return ExitUsage
	// A run id prefix that names several runs: like git refusing an
	// ambiguous short hash, the argument needs more of the id.
	case errors.Is(err, review.ErrAmbiguous):
		return ExitUsage
	case errors.Is(err, review.ErrNotFound):
		return ExitNotFound
	case errors.Is(err, planparse.ErrInvalid), errors.Is(err, planparse.ErrUnreadable):
		return ExitPlanInvalid
	case errors.Is(err, gitops.ErrRepoState), errors.Is(err, gitops.ErrLocked),
		errors.Is(err, gitops.ErrHeadMoved), errors.Is(err, drive.ErrRunInProgress):
		return ExitRepoState
	case errors.Is(err, drive.ErrTaskFailed):
		return ExitTaskFailed
	default:
		return ExitInternal
	}
}

// cliExit reports whether err carries an exit code of urfave/cli's, not a
// child process's.
func cliExit(err error) bool {
	return errors.As(err, new(cli.ExitCoder)) && !errors.As(err, new(*exec.ExitError))
}
