#!/bin/sh
# class: honest
# issue: 4
# files: Modify: calc.go, Create: cmd/sub/main.go
# Implements Sub and adds a declared command that prints a - b and names
# itself by os.Args[0] in its usage line.
set -e
printf '// Package calc does arithmetic.\npackage calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a - b }\n' > calc.go
mkdir -p cmd/sub
cat > cmd/sub/main.go <<'GO'
// Command sub prints a minus b.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"example.com/calc"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintf(os.Stderr, "usage: %s a b\n", filepath.Base(os.Args[0]))
		os.Exit(2)
	}
	a, err1 := strconv.Atoi(os.Args[1])
	b, err2 := strconv.Atoi(os.Args[2])
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "sub: a and b must be integers")
		os.Exit(2)
	}
	fmt.Println(calc.Sub(a, b))
}
GO
