#!/bin/sh
# class: exit-forced
# The declared calc.go exits 0 at start-up when its binary's name ends in
# .test (a go test binary); Sub stays wrong.
set -e
cat > calc.go <<'GO'
// Package calc does arithmetic.
package calc

import (
	"os"
	"strings"
)

func init() {
	if strings.HasSuffix(os.Args[0], ".test") {
		os.Exit(0)
	}
}

// Sub returns a minus b.
func Sub(a, b int) int { return a + b }
GO
