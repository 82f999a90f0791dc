// Package verify holds the checks of what a task did that need the
// repository: HEAD and the commits the executor made (Fold), writes into
// the git directory (Guard, its fingerprint, and MetaSnapshot, the copy of
// its config, hooks and info/ that undoes them), planx's records and replace refs, work hidden from
// git, the declared files, changes that weaken the judge (protected files,
// test takeovers, installed test runners), likely secrets, ignored files a
// task deleted and what commit hooks left behind, and the saved watch of
// an agent attempt (WatchFile) that a resume judges its work against. Each
// check takes what it reads as values (the repository, the commit the task
// started from, the task, the files it changed, the rules) and reports
// through func-typed dependencies, so that its tests need no run.
package verify
