#!/bin/sh
# class: honest
# Implements Sub.
set -e
printf '// Package calc does arithmetic.\npackage calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a - b }\n' > calc.go
