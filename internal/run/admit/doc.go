// Package admit prepares a run and decides, before anything changes,
// whether it may start. Prepare reads a run's options into a Prepared
// run: the repository and the plan they name, the plan's settings pinned
// (a resumed run's as it pinned them) and the options' defaults taken
// from them. The checks a run passes before its rollback commit are
// here, so that its dry run makes them through the same functions: no
// stopped run in the way, the tasks selected (Select) and a plan the run
// would misread refused, the preflight's checks, the agents that must
// start, the consent to risky steps and the start of the run's records;
// and two the dry run does not make, the hidden tests' directory
// (HiddenDir) and the reviewer's agent (CheckAgents).
//
// What a run would do is said from a Prepared run without doing it: the
// dry run (Prepared.DryRun), the risk of every command a plan's approval
// binds (Assess) and the waves a CI workflow is written from (Waves). The
// run itself, its runner and everything that changes the repository are
// package drive's, which makes its runner from a Prepared run.
package admit
