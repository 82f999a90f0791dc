// Package taskgate owns a task's gates in a run: their selection, the
// fixers and what they changed, the cache of gates passed on the same tree,
// the clean checkout they run in, the test-by-test judgement of an agent's
// tests, the check that nothing changed the tree they passed on, the
// baseline before the first task and the final gates.
//
// It runs gates through gaterun, records them through ledger and takes its
// checkouts from a wave.Pool; it knows no runner: what the run shares (its
// log issues, warnings, output, state saves) comes through the Keeper's
// func-typed fields.
package taskgate
