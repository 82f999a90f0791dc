// Package handconfig tells a person's edit of .planx.yaml made while a run
// is stopped from a task's: whether the file changed since the stop
// (EditedSinceStop, StopTree), the digest the run state remembers the edit
// by (Remember, Holds), what staging leaves alone (Unstaged) and what the
// person is told (Notice), and the re-pin a person asks for (Repin).
//
// A person edits .planx.yaml while a run is stopped, typically to fix a
// gate. The run keeps the settings it pinned when it started, so a task can
// never loosen its own checks, and says so. The edit is the person's, not
// the stopped task's: it is not judged as the task's, never staged into a
// task commit, and stays in the work tree as an uncommitted change when the
// run ends or is aborted, ready for the next run.
package handconfig
