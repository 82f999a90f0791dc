// Package progress reports what a run does: permanent lines everywhere; on
// a terminal a live status line (task, phase, elapsed time) or, while a
// parallel wave runs, a board of one such line per running task in plan
// order below the permanent lines; one JSON event per line for machines
// (--json); GitHub Actions annotations and a step summary; and the output
// of steps, agents and gates as it comes (--follow), each line prefixed
// with its task. The loop calls it; it runs nothing and reads no
// repository.
package progress
