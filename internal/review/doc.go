// Package review reads planx runs back from git history and verifies them.
//
// What it reads comes from commit trailers (see record.TrailerRun and
// friends), the plan file as committed, and optional git notes, so review
// works on a fresh clone, in CI and inside a pre-push hook. To tell the
// commits planx made and gated from rewrites (amend, rebase, cherry-pick,
// copied trailers) it also reads planx's local records (records.MadeCommit,
// records.GateRecord); a clone without them reports each
// commit as gated elsewhere, not re-verified here.
//
// A run is its rollback commit (Planx-Rollback: true) plus the task commits
// carrying the same Planx-Run, found on the first-parent history. Reading is
// paged and stops at the rollback commit of the last run asked for, so the
// cost follows the length of the runs read, not the age of the repository.
//
// Verify checks each task commit in scope: trailers well formed, the task
// still in the plan with the same text (else drift, with a line diff), its
// gates recorded as passed, its dependencies committed before it, and real
// changes besides the plan and the execution log; that it is the commit planx
// made or has a tree with passing gate records; that its gate note belongs
// to it. --rerun-gates re-runs gates per commit in a temporary worktree with
// trusted definitions and records them by tree. Its error wraps the
// sentinel that gives planx's exit code: planparse.ErrInvalid (4) for a plan
// that no longer parses, record.ErrTaskFailed (3) for failed gates and
// unproven commits, record.ErrDrift (6) for changed or removed tasks, in
// that order of precedence.
package review
