// Package archtest holds no code: its test checks planx's import rules
// (docs/architecture.md) with go list, so a forbidden arrow fails CI
// instead of waiting for a reviewer to notice it.
package archtest
