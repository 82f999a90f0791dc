// Package runstate is a stopped or running run as planx keeps it outside the
// history: the state file under .git/planx (State, loaded by resume, skip,
// abort and status, and written by versions before this one: its JSON is
// frozen by a golden test), the settings pinned when the run started
// (Pinned), the run's directory of outputs (RunDir) and the run lock
// (Lock) that lets one planx at a time work in a work tree. It runs
// nothing.
package runstate
