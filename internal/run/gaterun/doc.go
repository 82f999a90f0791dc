// Package gaterun runs a gate selection for a task in a directory and
// reads its results: the test reports graded test by test against the
// base and the run's known failures, the log's gate records, and the
// failure text (the tests that failed, where the whole output is, how to
// run the gate again).
//
// It knows no runner: what it needs comes as plain values and func-typed
// dependencies in Options and Spec.
package gaterun
