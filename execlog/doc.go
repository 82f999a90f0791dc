// Package execlog keeps a run's execution log: a markdown file in the
// repository, modelled on the memory-bank execution logs, that travels
// inside every task commit. The log is held in memory and the whole file is
// rendered again on every write, so the file is always consistent and the
// rendering is deterministic; a JSON copy lets a resumed run pick it up.
package execlog
