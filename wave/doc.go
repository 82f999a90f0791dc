// Package wave is the mechanics of parallel waves (planx run --jobs N): the
// pool of linked work trees (slots) tasks and clean gates run in, kept
// between runs, pruned when idle, with worktree_setup run once per slot
// for the same manifests (Pool, PruneIdle, Setup), a task's
// isolated run in its slot (Isolated), the workers that run a wave's tasks
// at most N at once (Workers), what is kept of them at a stop, the
// merge chain that stages a wave's work in plan order and what its landing
// needs, the commit hooks planx runs itself for a wave's commit-tree
// commits, and the integration gate with its bisect (Gate).
//
// It knows no run: it gets a repository, a run id and small func-typed
// dependencies (a task's steps, gates and declared-file check are the
// run's, passed in as funcs), and imports only gitops, planparse, progress
// and outcome; the wave's orchestration stays in executor.
package wave
