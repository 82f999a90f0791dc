// Package executor runs a plan: preflight, rollback commit, then per task
// execute, verify with git, run the gates and make one atomic commit, while
// keeping the execution log.
package executor
