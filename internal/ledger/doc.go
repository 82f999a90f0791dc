// Package ledger keeps planx's records of a run: the gates that passed on a
// tree (so that a gate is not run again on the same tree), the commits planx
// made (so that verify tells them from a stranger's), and the messages of
// planx's commits, whose trailers are the contract review and verify read.
// It writes through its record store (internal/ledger/records); it runs
// nothing.
package ledger
