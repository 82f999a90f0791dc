// Package aside keeps the user's ignored files — which no commit holds,
// not even the rollback commit — while a run lasts: it copies the user's
// own (not build outputs, caches or installed dependencies) into the git
// directory as the run starts, puts back after each task what the task
// deleted or changed (keeping the task's version aside), and settles them
// when the run ends, naming the files over the limit that are gone.
package aside
