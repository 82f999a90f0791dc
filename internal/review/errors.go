package review

import (
	"errors"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
)

// Sentinels. Each wraps the sentinel that already carries its exit code, so
// internal/command/exit.go needs no case of its own for them.
var (
	// ErrShallow: history ends, in a shallow clone, before a run's rollback
	// commit; the run cannot be checked until more history is fetched
	// (repository state, exit 5).
	ErrShallow = fmt.Errorf("%w: shallow clone", gitops.ErrRepoState)
	// ErrUnverified: a task commit does not prove its task (malformed
	// trailers, no real change, a gate not recorded, dependency order); a
	// task failure (exit 3).
	ErrUnverified = fmt.Errorf("%w: task commit not verified", record.ErrTaskFailed)
	// ErrRange: a revision range that is not A..B or does not resolve; the
	// command layer reports it as a usage error.
	ErrRange = errors.New("invalid revision range")
	// ErrUntrusted: --rerun-gates found no trusted revision to take gate
	// definitions from (no --base, no origin/HEAD); a usage error too.
	ErrUntrusted = errors.New("no trusted gate definitions")
)

// ShallowError says which run was cut off and how to get the rest.
type ShallowError struct {
	Run      string     // the run whose rollback commit is missing
	Boundary gitops.SHA // the last commit the clone has on that path
}

func (e *ShallowError) Error() string {
	return fmt.Sprintf("history ends at %s (a shallow clone) before the rollback commit of run %s: "+
		"fetch the whole history first (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)",
		e.Boundary.Short(), e.Run)
}

// Unwrap lets errors.Is find ErrShallow and, through it, gitops.ErrRepoState.
func (e *ShallowError) Unwrap() error { return ErrShallow }
