// Package checks is the verify side of a task in one work tree: the run's
// protection rules (the plan, the configuration, the gates and what they
// run), the checks a task's work passes after its executor ended, the
// user's ignored files kept and put back, and the watch saved for a
// resume. It composes verify's git checks with the gates' reach, and gets
// the place it checks, the rules and the log's path as values and the
// run's issues and output through func-typed seams.
package checks
