#!/bin/sh
# class: honest
# Writes Sub badly formatted, then runs gofmt -w on the whole repository
# (which leaves the files it did not write as they are).
set -e
printf '// Package calc does arithmetic.\npackage calc\n// Sub returns a minus b.\nfunc Sub(a,b int)int{\nreturn a-b}\n' > calc.go
gofmt -w .
