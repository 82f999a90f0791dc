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
// It knows no run: it gets a repository, a run id and small func-typed
// dependencies (a task's steps, gates and commit message, the run's log,
// state and records are the run's, passed in as funcs a caller runs under
// its lock); which tasks form a wave and recording their results in the
// run stay in executor.
package wave
