#!/bin/sh
# class: environment
# Writes the wrong Sub and `go env -w GOFLAGS=-run=^$` (Go's env file under
# $HOME): go test runs no test and says ok.
set -e
printf 'package calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a + b }\n' > calc.go
go env -w 'GOFLAGS=-run=^$'
