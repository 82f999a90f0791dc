// Package recovery works on a run that is not running: it says where a
// stopped run stands (Status, for `planx status`), takes it back out
// (Abort: the run's orphaned processes and watch cleaned, a landing a stop
// cut taken back, then package rewind, keeping a person's .planx.yaml edit
// made after the stop) and takes a finished run back off its branch (Undo).
//
// It also holds what those commands share with the run itself, which
// imports it (never the reverse): the run's history as git has it after a
// stop (ReadHistory: its task commits, less those planx did not make, and
// the tasks it skipped; Remaining; Drift), what a stop tells the person to
// do next (StoppedNext, DriftNext, WaveNext: one text for the run's output,
// status and the execution log), what resume does with the attempt a run
// stopped in (ReuseAttempt, decided from the stop alone) and how the
// stopped task was finished, for its commit's Planx-Finished trailer
// (NoteFinished), the plan edits a killed commit kept aside (HeldPlanPath,
// WarnHeldPlan) and the end of a run (EndRun).
package recovery
