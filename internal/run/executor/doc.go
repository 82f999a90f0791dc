// Package executor orchestrates a run: Run, Resume, Skip, Abort, Status,
// Assess and the dry run. It prepares a run (the plan and its settings,
// pinned in the run state; which tasks run, decided by package runplan;
// the preflight and the run's new records, package runstart; the rollback
// commit, rollback.go), then takes each task
// through one path (turn.go: execute, verify, the judge's checks, the
// gates) in its place (place.go), the user's work tree (loop.go, which
// commits it) or, for a parallel wave, a slot (worktree.go; waves.go: the
// wave loop; parallel.go, integrate.go: a wave's run and landing through
// package wave's Flight and Landing, with the run's log, state and records
// as their funcs), and
// maps a task's failure to a stop in one place (stopTask, books.stop).
// Resume, skip and abort take a stopped run up again (session.go,
// resume.go, abort.go).
//
// The runner holds what changes while the run lasts (the state, the log,
// the tasks git has as done, where HEAD must be) and builds, for each
// package below it, the values that package is given: execopts.go for
// package execute (steps, agent, jail) and for package taskgate (a task's
// gates, the baseline, the final gates, the clean checkouts: one Keeper a
// run), checks.go for package verify (its Tree: the run's
// protection rules and the checks of a task's work after its executor, in
// the work tree), commit.go for the commit (a committer made for one commit; its
// message and records are package ledger's), books.go for the run's
// records (a task's log entry, their saving, the attempts' snapshots, a
// stop, the run's end). A task's turn (turn.go)
// holds, as a verify.Attempt, what is noted before its executor runs, to
// judge it after. What each package owns, and who may import whom, is in
// docs/architecture.md.
package executor
