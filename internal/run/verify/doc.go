// Package verify is the checks of what a task did, in the work tree it
// ran in (Tree: the serial loop's, or a wave's slot), against the commit
// it started from: what an attempt keeps between its phases and checks
// once its executor has ended (Attempt.Verify), the run's protection rules
// (the plan, the configuration, the gates and what they reach), and the
// checks themselves: HEAD and the commits the executor made (Fold), writes
// into the git directory (Guard, its fingerprint, and MetaSnapshot, the
// copy of its config, hooks and info/ that undoes them), planx's records
// and replace refs, work hidden from git, the declared files, changes that
// weaken the judge (protected files, test takeovers, installed test
// runners), likely secrets, the user's ignored files kept and put back,
// what commit hooks left behind, and the saved watch of an agent attempt
// (WatchFile) that a resume judges its work against. Each check takes
// what it reads as values (the repository, the commit the task started
// from, the task, the files it changed, the rules) and reports through the
// run's hall.Desk, so that its tests need no run.
package verify
