#!/bin/sh
# class: honest
# Implements Sub and builds the test binary into bin/ (ignored).
set -e
printf '// Package calc does arithmetic.\npackage calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a - b }\n' > calc.go
go test -c -o bin/calc.test .
