package record

// Trailer keys planx writes on its commits. A task commit has Refs (the
// plan), Run, Task, TaskHash, Executor and one Gate per gate; the rollback
// commit has Refs, Run and Rollback; Skipped names tasks skipped since the
// previous commit.
const (
	TrailerRefs     = "Refs"
	TrailerRun      = "Planx-Run"
	TrailerTask     = "Planx-Task"
	TrailerTaskHash = "Planx-Task-Hash"
	TrailerExecutor = "Planx-Executor"
	TrailerGate     = "Planx-Gate"
	TrailerRollback = "Planx-Rollback"
	TrailerSkipped  = "Planx-Skipped"
)
