package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/planx-dev/planx/approval"
	"github.com/planx-dev/planx/executor"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// Exit codes, listed in `planx --help`.
const (
	ExitOK          = 0
	ExitInternal    = 1
	ExitUsage       = 2
	ExitTaskFailed  = 3
	ExitPlanInvalid = 4
	ExitRepoState   = 5
	ExitDrift       = 6
	ExitWaitingCI   = 7
	ExitInterrupted = 130
)

const exitCodeHelp = `EXIT CODES:
   0    ok
   1    internal error
   2    usage error
   3    a task or a gate failed
   4    the plan is invalid
   5    repository state (dirty, locked, detached, operation in progress, run in progress)
   6    plan drift (a committed task's text changed)
   7    in CI (--ci or CI=true): the run stopped at a manual task that waits for a person
        (outside CI that stop exits 0, like git rebase stopping at "edit")
   130  interrupted
`

// errUsage marks command-line mistakes.
var errUsage = errors.New("usage")

// errWaitingCI marks a run stopped at a manual task in CI mode, where
// nobody will do it: a green job would hide a half-done plan.
var errWaitingCI = errors.New("waiting for a person in CI")

// inCI turns a stop at a manual task into a failure in CI mode.
func inCI(ci bool, err error) error {
	if ci && errors.Is(err, executor.ErrManual) {
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
	case errors.Is(err, executor.ErrManual):
		// Like `git rebase -i` stopping at "edit": the run is healthy and waits.
		return ExitOK
	case errors.Is(err, errUsage):
		return ExitUsage
	case errors.Is(err, executor.ErrInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, executor.ErrDrift):
		return ExitDrift
	// A plan edited since `planx approve` is no longer the text a person
	// accepted: drift, like a committed task whose text changed.
	case errors.Is(err, approval.ErrChanged):
		return ExitDrift
	// No approval is repository state, not a task failure (nothing ran) nor
	// an invalid plan: the fix is acting on the repository (planx approve,
	// or fetching refs/planx/approvals/*), like a dirty tree under
	// --require-clean.
	case errors.Is(err, approval.ErrNotApproved):
		return ExitRepoState
	case errors.Is(err, planparse.ErrInvalid), errors.Is(err, planparse.ErrUnreadable):
		return ExitPlanInvalid
	case errors.Is(err, gitops.ErrRepoState), errors.Is(err, gitops.ErrLocked),
		errors.Is(err, gitops.ErrHeadMoved), errors.Is(err, executor.ErrRunInProgress):
		return ExitRepoState
	case errors.Is(err, executor.ErrTaskFailed):
		return ExitTaskFailed
	default:
		return ExitInternal
	}
}
