package record

// Trailer keys planx writes on its commits. A task commit has Refs (the
// plan), Run, Task, TaskHash, Executor and one Gate per gate, and Label
// when the plan calls the task otherwise; the rollback
// commit has Refs, Run and Rollback; Skipped names tasks skipped since the
// previous commit; Warning what planx let pass but reported; Group names
// a group task (a task with sub-tasks) that the commit completes: a group
// has no commit of its own, it is ticked and recorded with its last
// sub-task. A Gate value is `name=pass|fail Nms`, followed by "overridden"
// for a gate a --gate flag replaced and "cached" for one not run because it
// passed on the same tree.
const (
	TrailerRefs     = "Refs"
	TrailerRun      = "Planx-Run"
	TrailerTask     = "Planx-Task"
	TrailerTaskHash = "Planx-Task-Hash"
	// TrailerLabel is the task's own ID in its plan (Kiro's 1.2,
	// task-master's 3.1) when it is not the Planx-Task ID; the subject keeps
	// the Planx-Task ID.
	TrailerLabel    = "Planx-Label"
	TrailerExecutor = "Planx-Executor"
	// TrailerReview is the review gate's verdict, by whom, and how many
	// findings (the findings are in the gate-output note); TrailerAgent
	// names the agent that did the task, which the review's is not.
	TrailerReview = "Planx-Review"
	TrailerAgent  = "Planx-Agent"
	// TrailerHidden says, per test gate, how many hidden tests (never
	// seen by the agent) ran and passed with the task's work.
	TrailerHidden = "Planx-Hidden-Tests"
	// TrailerSandbox is the confinement the task's executor ran under
	// (landlock+mountns, landlock, seatbelt, none); absent for a task whose
	// own plan steps ran unconfined.
	TrailerSandbox = "Planx-Sandbox"
	// TrailerCost is what the task's agent reported its model use cost over
	// all its attempts (Cost.String): "tokens in=5000 out=500; usd=0.0300".
	TrailerCost = "Planx-Cost"
	// TrailerOutside summarizes what an agent wrote outside its work tree
	// in its task space, none of which reached the machine: "3 places:
	// ~/.cache/go-build/ (15 files), ~/.claude/x, /tmp/y".
	TrailerOutside = "Planx-Outside"
	// TrailerTests is one gate's tests judged against the task's base
	// commit: "test 12 passed (+1 new) 0 failed 0 skipped", or "test
	// exit-code only" for a gate whose runner gives no per-test report.
	TrailerTests    = "Planx-Tests"
	TrailerGate     = "Planx-Gate"
	TrailerRollback = "Planx-Rollback"
	TrailerSkipped  = "Planx-Skipped"
	// TrailerWarning carries what the task did that planx let pass but a
	// reviewer should see: "outside-declared=a.go,b.go", "folded-commits=2".
	TrailerWarning = "Planx-Warning"
	// TrailerFixed names a file a fixer gate (fix: true) changed, as
	// "gate path"; the change is part of the task commit.
	TrailerFixed = "Planx-Fixed"
	// TrailerWave marks a task commit integrated from a parallel wave: the
	// wave's number and the commit all its tasks started from.
	TrailerWave  = "Planx-Wave"
	TrailerGroup = "Planx-Group"
	// TrailerWaveGate is a gate of the integration gate, run on a wave's
	// combined tree: on the wave's last commit the branch keeps, whose tree
	// that is, in the Gate value format.
	TrailerWaveGate = "Planx-Wave-Gate"
	// TrailerFinished says how a task was finished when its attempt did
	// not simply run and pass: "<task> <how>", e.g. "T002 by hand after
	// step 2 of 3 failed (exit 1)", "T002 as it was left after …", "T002 by
	// a retry after …", "T002 by running it again after an interrupt …",
	// "T003 skipped after …" (on the commit that
	// carries the task's Planx-Skipped). A commit without it is a task whose
	// attempt ran and passed as is.
	TrailerFinished = "Planx-Finished"
	// TrailerTextAccepted is on the commit that accepts a done task's
	// edited text without running the task again (planx run
	// --accept-text): "<old hash> -> <new hash>". That commit has Refs,
	// Planx-Task and the new Planx-Task-Hash, which make the task done.
	TrailerTextAccepted = "Planx-Text-Accepted"
)
