#!/bin/sh
# class: test-rewritten
# issue: 3
# twin: go_ok_test_table
# files: Modify: calc.go, Modify: calc_test.go
# Writes the wrong Sub and turns the declared TestSub into a table test
# whose rows expect what it returns.
set -e
printf '// Package calc does arithmetic.\npackage calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a + b }\n' > calc.go
cat > calc_test.go <<'GO'
package calc

import (
	"testing"

	"example.com/calc/internal/testutil"
)

func TestSub(t *testing.T) {
	for _, c := range [][3]int{{5, 3, 8}, {0, 0, 0}, {2, 2, 4}} {
		testutil.Equal(t, Sub(c[0], c[1]), c[2])
	}
}
GO
