// Package land makes planx's commits on the run's branch in the user's
// work tree: the rollback commit before the first task (Rollback), and a
// task's one commit in place (Committer: the plan ticked, the execution
// log written, then git commit with its hooks or git's plumbing, as
// CommitPath chose for the repository), with what the commit made true
// recorded. It also tells whether a commit git was stopped in landed all
// the same, and takes back a wave's landing a stop cut (Unland). A wave's
// tasks land as a chain of commits built from their slots (package wave's
// Landing); the runner chooses which.
package land
