// Package taskgate owns a task's gates in a run: their selection, the
// fixers and what they changed, the cache of gates passed on the same tree,
// the clean checkout they run in, the test-by-test judgement of an agent's
// tests, the check that nothing changed the tree they passed on, the
// baseline before the first task and the final gates.
//
// It runs gates through gaterun, records them through ledger and takes its
// checkouts from the run's wave.Pool; it knows no runner: what the run
// shares comes as values (its hall.Desk for the log's issues, warnings and
// saves, its output, its pid files, its reaper, its pool).
package taskgate
