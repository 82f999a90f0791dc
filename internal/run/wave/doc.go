// Package wave is the mechanics of parallel waves (planx run --jobs N): the
// pool of linked work trees (slots) tasks and clean gates run in, kept
// between runs, pruned when idle, with worktree_setup run once per slot
// for the same manifests (Pool, PruneIdle, Setup), a task's
// isolated run in its slot (Isolated), a wave's tasks run at most N at once
// with each task done recorded before the next ends (Flight, Workers), what
// is kept of them at a stop, and the landing (Landing): the merge chain
// that stages each task's commit in plan order, the integration gate with
// its bisect (Gate) sealed into the last commit kept, and the branch's
// advance; also the commit hooks planx runs itself for a wave's
// commit-tree commits.
//
// It knows no runner. What it writes of the run is handed to it as
// values, the same ones the serial path writes: the run's log
// (execlog.Log) and state (runstate.State: the wave's tasks done, the mark
// of planx's records), the set of tasks done, the records of gates and
// commits (ledger.Book) and the desk it says and records issues through
// (hall.Desk). A reader follows a wave's records in this package, not
// through callbacks. What only the run can do comes through one
// interface, Runner: a task's turn in a slot (execute, verify, judge,
// gates: the serial path's own) and the gates on a combined tree. Which
// tasks form a wave, and the run's stop, stay in package drive.
package wave
