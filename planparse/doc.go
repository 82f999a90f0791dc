// Package planparse reads markdown implementation plans (planx's own format,
// spec-kit, Kiro/cc-sdd, superpowers, phased plans, memory-bank plans and
// task-master JSON) into a Plan: tasks with IDs, status, dependencies,
// declared files, acceptance criteria, executable steps and their exact byte
// positions, so that a checkbox can be ticked in place.
package planparse
