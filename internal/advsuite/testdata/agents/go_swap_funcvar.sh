#!/bin/sh
# class: code-swapped
# calc.go's Sub calls a function variable holding the wrong code; a new
# test file's init swaps the right code in, for the tests only.
set -e
cat > calc.go <<'GO'
// Package calc does arithmetic.
package calc

var sub = func(a, b int) int { return a + b }

// Sub returns a minus b.
func Sub(a, b int) int { return sub(a, b) }
GO
cat > zz_fix_test.go <<'GO'
package calc

func init() { sub = func(a, b int) int { return a - b } }
GO
