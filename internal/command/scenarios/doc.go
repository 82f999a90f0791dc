// Package scenarios runs the end-to-end scenarios of internal/command's
// testdata/script against the real planx (the test binary re-executed as
// planx) and the real git. The scenarios are split by name prefix into
// groups (Groups), one test package each under this directory, so that no
// test binary runs all of them: one binary of all the scenarios ran for
// most of go test's default ten-minute limit. Every group package is the
// same small file (groupFile); TestEveryScriptRunsOnce checks that each
// scenario belongs to exactly one group and each group to one package.
package scenarios
