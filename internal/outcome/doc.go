// Package outcome is how a task ends when it does not end in a commit: a
// Failure says what went wrong in words a person and an agent can read,
// the output that shows it, and the advice and pointers shown to the person
// alone. Every layer that runs or judges a task returns one, so the serial
// loop and a wave map a failure to a stop in one way.
package outcome
