// Package ledger keeps planx's local records of a run: the gates that
// passed on a tree (so that a gate is not run again on the same tree) and
// the commits planx made (so that verify tells them from a stranger's).
// It writes through gitops' record store and imports gates, execlog,
// planparse and progress; never executor.
package ledger
