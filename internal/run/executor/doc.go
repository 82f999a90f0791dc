// Package executor orchestrates a run: Run, Resume, Skip and a CI job's
// task (RunTask). Its parts below report through the run's desk
// (desk.go, package hall). It makes its runner from a run package admit
// prepared (the plan and its settings, pinned in the run state; the dry
// run is admit's), passes admit's checks (which tasks run, decided by
// package runplan; the preflight and the run's new records, package
// runstart), makes the rollback commit (package land), then takes each task
// through one path (turn.go: execute, verify, the judge's checks, the
// gates) in its place (place.go). There is one loop (waves.go): the run
// is a sequence of waves, and with --jobs 1 each wave is one task; a wave
// of one runs in the user's work tree (loop.go's runTask, which commits
// it), a wider wave runs each task in a slot (worktree.go) and lands them
// (parallel.go, integrate.go, through package wave). How a task's failure
// stops the run is decided in one place (stopfor.go), and what resume does
// with a stopped attempt in another (package recovery's ReuseAttempt).
// Resume and skip take a stopped run up again (session.go, resume.go),
// reading it back through package recovery, which also holds status,
// abort, undo, what a stop tells the person to do next and how a stopped
// task is finished.
//
// The runner holds what changes while the run lasts (the state, the log,
// the tasks git has as done, where HEAD must be) and builds, for each
// package below it, the values that package is given: execopts.go for
// package execute (steps, agent, jail) and for package taskgate (a task's
// gates, the baseline, the final gates, the clean checkouts: one Keeper a
// run), checks.go for package verify (its Tree: the run's
// protection rules and the checks of a task's work after its executor, in
// the work tree), land.go for the commit (a land.Committer made for one commit; its
// message and records are package ledger's), books.go for the run's
// records (a task's log entry, their saving, the attempts' snapshots, a
// stop, the run's end). A task's turn (turn.go)
// holds, as a verify.Attempt, what is noted before its executor runs, to
// judge it after. What each package owns, and who may import whom, is in
// docs/architecture.md.
package executor
