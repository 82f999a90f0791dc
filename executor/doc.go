// Package executor runs a plan: preflight, rollback commit, then per task
// execute, verify with git, run the gates and make one atomic commit, while
// keeping the execution log.
//
// The judge (gates, .planx.yaml, hooks path, identity) is pinned when a run
// starts (judge.go). What an executor may not do to it, and how planx sees
// that it did, is package verify's (declared files, protected paths,
// takeovers, secrets, hiding from git, a task's ignored outputs, .git/
// writes undone, installed test runners), called from verify.go with the
// paths the run protects (protect.go); beside it are settled.go (nothing
// changes after verify; fixer gates; processes left behind are killed
// there through package execute) and cleangates.go (gates on the staged
// tree alone).
//
// Package execute runs a task's steps or agent in a directory, confined,
// with its environment, pid files and output; execopts.go gives it the
// run's values, worktree.go a wave slot's, and prompt.go builds what the
// agent's prompt says besides the task.
//
// The runner holds the run (state, log, the tasks git has as done, where
// HEAD must be) and orchestrates it: selection, preflight, the task loop,
// the commit, stop and recovery. What has state of its own is a type of its
// own: what the run executes (setup.go: the plan, configuration, gates and
// flags, fixed at start, with how each task executes, the waves, the risk
// assessment in assess.go and the dry run in dryrun.go), the plan file
// (planfile.go: its bytes as planx last wrote them and every write of it;
// which tasks git has as done, done.go; whether a person edited it, pin.go),
// a task's turn on the serial path (turn.go: execute, verify, gate, and what
// the task's commit carries), a parallel wave (parallel.go: which tasks form
// it and recording their results; a task's isolated run in its slot, the
// slot pool, the merge chain, the wave's commit hooks and the integration
// gate with its bisect are package wave's, called with the run's steps,
// gates and checks as funcs from worktree.go and wavegate.go), taking an
// aborted run back out (abort.go: the lock, orphans and the saved watch,
// then package rewind, which keeps the run's traces and puts the pre-run
// state back), the task's commit (commit.go: a committer made from the run
// for one commit, which ticks, logs, commits the way commitpath.go chose
// and records; its message and the gate and commit records are package
// ledger's) and the mark that guards the records from executors
// (recordsguard.go), the snapshots of stopped attempts (snapshot.go), the
// bytes a recovery command keeps before it drops or writes over them
// (keep.go) and the saved watch of an agent attempt (package verify's
// WatchFile; watchsave.go hands it to a turn), kept until its work is committed or
// discarded so that every resume judges that work against it.
//
// Every gate selection (a task's gates and fixers, the clean-tree gates,
// the final gates, a wave task's and the wave's integration gate, the
// baseline) runs through package gaterun, which also reads the results:
// test reports, known failures, the failure text, what a gate reaches.
// gaterun.go says which gates a task runs and where, and builds the
// options every run shares.
package executor
