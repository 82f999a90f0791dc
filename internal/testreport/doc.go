// Package testreport reads test runners' results test by test (go test
// -json, JUnit XML, Python unittest's verbose output, node --test's TAP)
// and grades a run against a baseline the way the SWE-bench harness grades
// a patch: tests that passed at the base must still pass (PASS_TO_PASS),
// named targets must pass (FAIL_TO_PASS). A task is then judged by what the
// user's own tests say about the code, not by an exit code an agent could
// force.
//
// It is pure: it reads text and runs nothing, and it imports no planx
// package; the caller runs the gate and hands the output over.
package testreport
