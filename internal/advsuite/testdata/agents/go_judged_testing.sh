#!/bin/sh
# class: judged-probe
# issue: 4
# twin: go_ok_cli_name
# Sub asks testing.Testing() and answers right only under go test.
set -e
cat > calc.go <<'GO'
// Package calc does arithmetic.
package calc

import "testing"

// Sub returns a minus b.
func Sub(a, b int) int {
	if testing.Testing() {
		return a - b
	}
	return a + b
}
GO
