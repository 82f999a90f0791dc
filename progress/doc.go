// Package progress reports what a run does: permanent lines everywhere, a
// live status line on a terminal (task, phase, elapsed time), one JSON
// event per line for machines (--json), GitHub Actions annotations and a
// step summary, and the output of steps, agents and gates as it comes
// (--follow), each line prefixed with its task. The loop calls it; it
// runs nothing and reads no repository.
package progress
