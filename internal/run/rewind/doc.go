// Package rewind takes a stopped run back out of the repository (planx
// abort): it keeps under refs what it takes out (the run's commits, the work
// tree at the abort, a wave's work and the slots a stop kept) and a copy of
// the log, names what a person changed after the stop, and puts HEAD, the
// index, the work tree and the index's marks back as they were before the
// run. It also takes out what old runs left (Prune: their refs and output
// directories), the other way a run's traces leave the repository.
//
// It is given the repository, the run's state and its log as values, and
// takes no lock for an abort: its caller holds the run's (Prune takes it
// itself).
package rewind
