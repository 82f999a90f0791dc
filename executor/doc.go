// Package executor runs a plan: preflight, rollback commit, then per task
// execute, verify with git, run the gates and make one atomic commit, while
// keeping the execution log.
//
// The judge (gates, .planx.yaml, hooks path, identity) is pinned when a run
// starts (judge.go). What an executor may not do to it, and how planx sees
// that it did, is in protect.go (protected paths), watch.go (hiding from
// git, the environment, .git/ writes undone), reap.go (processes left
// behind), settled.go (nothing changes after verify; fixer gates) and
// cleangates.go (gates on the staged tree alone).
package executor
