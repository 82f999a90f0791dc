// Package planparse reads markdown implementation plans (planx's own format,
// spec-kit, Kiro/cc-sdd, superpowers, phased plans, memory-bank plans and
// task-master JSON) into a Plan: tasks with IDs, status, dependencies,
// declared files, acceptance criteria, executable steps and their exact byte
// positions, so that a checkbox can be ticked in place (a tasks.json task's
// "status" set to "done"). A task keeps the plan's own ID as its Label beside
// planx's canonical ID; DisplayID is how both are shown to a person.
package planparse
