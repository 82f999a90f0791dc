#!/bin/sh
# class: honest
# issue: 3
# files: Modify: calc.go, Modify: calc_test.go
# Implements Sub and turns the declared TestSub into a table test that
# keeps the base's case and adds others.
set -e
printf '// Package calc does arithmetic.\npackage calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a - b }\n' > calc.go
cat > calc_test.go <<'GO'
package calc

import (
	"testing"

	"example.com/calc/internal/testutil"
)

func TestSub(t *testing.T) {
	for _, c := range [][3]int{{5, 3, 2}, {0, 0, 0}, {2, 7, -5}} {
		testutil.Equal(t, Sub(c[0], c[1]), c[2])
	}
}
GO
