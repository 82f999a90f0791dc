// Package execute runs a task's executor in a directory: the plan's shell
// steps or the agent's process, confined by the run's jail, with the
// minimal environment, their process groups recorded for recovery after a
// crash and their output captured, and maps how each ended to the task's
// outcome. It knows no runner and no run state: it gets plain values, a
// *progress.Progress and a fault.Hook.
package execute
