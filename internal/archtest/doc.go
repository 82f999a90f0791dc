// Package archtest holds no code: its tests check planx's import rules with
// go list against the tables of docs/architecture.md (the one copy of those
// rules), that only gitops runs git, and the house sizes, so a forbidden
// arrow fails CI instead of waiting for a reviewer to notice it.
package archtest
