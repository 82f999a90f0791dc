// Package drive takes a run from start to end: Run, Resume, Skip and a
// CI job's task (RunTask). It makes its runner from a run package admit
// prepared and checked (the plan, its pinned settings, which tasks run),
// makes the rollback commit (package land), then drives each task through
// one path — execute, verify, the judge's checks, the gates, the commit —
// in its place. There is one loop: the run is a sequence of waves, and
// with --jobs 1 each wave is one task; a wave of one runs in the user's
// work tree and is committed there, a wider wave runs each task in a slot
// and lands them through package wave. How a task's failure stops the run
// is decided in one place, what resume does with a stopped attempt in
// another (package recovery's ReuseAttempt). Resume and skip read a
// stopped run back through package recovery.
//
// The runner holds what changes while the run lasts (the state, the log,
// the tasks git has as done, where HEAD must be) and hands each package
// below it plain values: package execute its steps, agent and jail,
// package taskgate one Keeper of the run's gates, package verify a Tree of
// the run's rules, package land a Committer for one commit. Its parts
// report through the run's desk (package hall). What each package owns,
// and who may import whom, is in docs/architecture.md.
package drive
