// Package planfile is the plan file of a run as it lies on disk and in the
// history: the bytes planx last read or wrote there and every write of it
// (a tick, taking one back), which tasks git has as done (task commits
// whose recorded hash matches the task's text), a task's text at a commit,
// and whether a person edited the plan during the run other than by ticks.
// It reads history through gitops and parses with planparse; it runs nothing.
package planfile
