// Package verify holds the checks of what a task did that need the
// repository: whether its changes match the files it declares, whether they
// weaken the judge (protected files, test takeovers, reformatted tests),
// whether they hold likely secrets, and whether the task wrote replace refs
// into the git directory. Each check takes what it reads as values (the
// repository, the commit the task started from, the task and the files it
// changed) and reports through func-typed dependencies, so that its tests
// need no run. It builds on judge's pure checks and gitops; it never
// imports executor.
package verify
