// Package attempt keeps a task's attempts recoverable: the work tree
// recorded as a commit when an attempt starts and when it stops (kept
// under refs/planx/runs/<id>/stops/), what the attempt changed against what
// a person changed since the stop, and the bytes a recovery command keeps
// under refs/planx/runs/<id>/kept/ before it drops or writes over them.
// Resume, retry, skip and abort decide from these, so no command discards
// bytes a person wrote. It writes through gitops and the run state only.
package attempt
