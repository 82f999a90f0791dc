// Package record is the run record: the contract between the code that
// writes a run into git (package drive) and the code that reads it back from
// history (review, planx log/show/verify). It holds the commit trailer
// keys and their parser (ParseTrailers, git's own rules for a commit
// message's trailer block), the run and task statuses, the format of the
// gate-output note and the errors both sides report.
//
// It is a leaf: it imports nothing of planx, so the reader does not pull
// in the writer (and its agent, risk, approval and process code) to know
// what a trailer is called.
package record
