// Package judge holds planx's pure checks of what a task changed: given a
// file's bytes before and after the task, or a path, it says whether the
// change only reformats, whether it adds code that decides whether the
// tests run, how it changed a Rust file's inline tests, and which paths
// are test files. It runs no process and reads no repository: the loop
// reads the files (git for the base, the disk for the work tree) and
// decides what a finding costs the task.
package judge
