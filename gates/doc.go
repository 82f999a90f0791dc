// Package gates defines quality gates — shell commands such as tests or
// linters that must pass before a task is committed — gathers them from the
// repository's .planx.yaml, the plan's front matter and --gate flags, and
// runs them, keeping each gate's whole output in a file.
package gates
