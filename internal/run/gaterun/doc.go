// Package gaterun runs a gate selection for a task in a directory and
// reads its results: the test reports graded test by test against the
// base and the run's known failures, the log's gate records, and the
// failure text (the tests that failed, where the whole output is, how to
// run the gate again).
//
// It knows no runner: what it needs comes as values in Options and Spec
// (the run's hall.Desk and pid files, a run's Grading); the judge's clean
// checkouts, which are the caller's (a slot of its pool), come through
// TestRuns.Checkout.
package gaterun
