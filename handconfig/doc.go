// A person may edit .planx.yaml while a run is stopped, typically to fix a
// gate. The run keeps the judge it pinned when it started (judge.go), so a
// task can never loosen its own checks, and says so. The edit is the
// person's, not the stopped task's: it is not judged as the task's, never
// staged into a task commit, and stays in the work tree as an uncommitted
// change when the run ends or is aborted, ready for the next run.
//
// Package handconfig tells that edit from a task's: whether .planx.yaml
// changed since the stop (EditedSinceStop, StopTree), the digest the run
// state remembers it by (Remember, Holds), what staging leaves alone
// (Unstaged) and what the person is told (Notice). It reads the repository
// through gitops and the run state of runstate, imports gates for the
// file's name and format, and never imports executor.
package handconfig
