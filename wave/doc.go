// Package wave is the mechanics of parallel waves (planx run --jobs N): the
// pool of linked work trees (slots) tasks and clean gates run in, what is
// kept of them at a stop, the merge chain that stages a wave's work in plan
// order and what its landing needs, the commit hooks planx runs itself for a
// wave's commit-tree commits, and the bisect of a failed integration gate.
//
// It knows no run: it gets a repository, a run id and small func-typed
// dependencies, and imports only gitops, planparse, progress and outcome;
// the wave's orchestration stays in executor.
package wave
