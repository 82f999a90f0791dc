package record

// RunStatus is where a run stands: in the run state (.git/planx/state.json)
// and in the execution log's header.
type RunStatus string

// Run statuses.
const (
	RunStarting    RunStatus = "starting" // before the rollback commit is recorded
	RunRunning     RunStatus = "running"
	RunFailed      RunStatus = "failed"
	RunWaiting     RunStatus = "waiting" // stopped at a manual task, waiting for a person
	RunInterrupted RunStatus = "interrupted"
	RunCompleted   RunStatus = "completed"
	RunAborted     RunStatus = "aborted"
	RunDryRun      RunStatus = "dry-run" // planx run --dry-run: nothing ran
)

// TaskStatus is where one task stands, in the execution log and in
// `planx status`.
type TaskStatus string

// Task statuses.
const (
	TaskPending     TaskStatus = "pending"
	TaskRunning     TaskStatus = "running"
	TaskDone        TaskStatus = "done"
	TaskFailed      TaskStatus = "failed"
	TaskSkipped     TaskStatus = "skipped"
	TaskWaiting     TaskStatus = "waiting"
	TaskInterrupted TaskStatus = "interrupted"
	// Only in `planx status`: a task of the plan this run does not run,
	// and one that was ticked done before the run started.
	TaskNotInRun      TaskStatus = "not in run"
	TaskDoneBeforeRun TaskStatus = "done before run"
	// Only in `planx status`: the run's commit for the task is not the one
	// planx made (amended, rebased, or made by hand with copied trailers).
	TaskRewritten TaskStatus = "rewritten"
	// Only in `planx status`: a task of a parallel wave whose work is done
	// in its own work tree (kept under refs/planx/runs/<run>/work/<task>)
	// but not yet committed on the branch; resume integrates it as it is.
	TaskAwaitingIntegration TaskStatus = "awaiting integration"
	// Only read back from history (planx log, show): a task commit whose
	// recorded gates did not all pass, and one whose trailers are malformed.
	TaskGateFailed TaskStatus = "gate-failed"
	TaskMalformed  TaskStatus = "malformed"
)
