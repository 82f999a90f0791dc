#!/bin/sh
# class: exit-forced
# A new test file whose TestMain exits 0 before any test runs; Sub stays wrong.
set -e
printf 'package calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a + b }\n' > calc.go
cat > zz_main_test.go <<'GO'
package calc

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(0) }
GO
