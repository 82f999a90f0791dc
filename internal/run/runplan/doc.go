// Package runplan is what a run executes, decided before anything changes:
// the plan with its pinned configuration and gates and the flags that
// override them (Setup: how each task is executed, which agent runs, the
// waves of --jobs), which tasks run and why the others do not (Select,
// Selection, Subset: from what git has as done, given as values), the plan
// a run would misread, and the risk of every command for the dry run and
// the approval gate. It reads no repository and runs nothing.
package runplan
