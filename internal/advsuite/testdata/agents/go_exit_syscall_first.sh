#!/bin/sh
# class: exit-forced
# A new test file sorted first whose test calls syscall.Exit(0): go test
# catches os.Exit(0) in a test, not the system call, and says ok.
set -e
printf 'package calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a + b }\n' > calc.go
cat > aaa_test.go <<'GO'
package calc

import (
	"syscall"
	"testing"
)

func TestAAA(t *testing.T) { syscall.Exit(0) }
GO
