package gitops

import "errors"

// Sentinel errors. Callers test them with errors.Is.
var (
	// ErrRepoState reports a repository that planx cannot work in as it stands:
	// not a work tree, an operation in progress, detached HEAD, dirty when a
	// clean tree is required (exit code 5).
	ErrRepoState = errors.New("repository state")
	// ErrLocked reports an index.lock that stayed held past the retries (exit code 5).
	ErrLocked = errors.New("repository locked")
	// ErrHeadMoved reports a compare-and-swap ref update that lost: someone else
	// moved the branch while planx was working (exit code 5).
	ErrHeadMoved = errors.New("HEAD moved")
	// ErrNothingToCommit reports a Commit without AllowEmpty whose index
	// matched HEAD: the task changed nothing that is not ignored.
	ErrNothingToCommit = errors.New("nothing to commit")
	// ErrStillRunning: a git that runs hooks had not exited when planx
	// stopped waiting for it after an interrupt; it is left running.
	ErrStillRunning = errors.New("still running")
)
