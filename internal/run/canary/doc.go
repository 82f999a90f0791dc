// Package canary writes the tests planx plants in the judge's checkout
// just before a test gate runs there, and takes them out again when it
// ends: canaries, which must come out of the runner's report as written
// (the ones that fail, failed), and twins, a copy under a fresh name of
// each test the task must fix, which must come out as the original does.
// Their names are drawn when they are planted, so the judged code cannot
// know or name them in advance; testreport reads them out of a report
// (Set.Check) and says what their outcomes prove.
//
// It writes files in a checkout it is given and nothing else: it runs no
// gate, no git and no process (package gaterun runs the gates they are
// planted around).
package canary
