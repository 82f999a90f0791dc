// Package runstart is the start of a run, before anything changes: the
// preflight's checks that the repository can take a run, its one status of
// the work tree (started early, while the history is read), and the run's
// two new records, the execution log (in a checked log directory) and the
// run state.
package runstart
