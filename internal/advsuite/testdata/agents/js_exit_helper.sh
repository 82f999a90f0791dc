#!/bin/sh
# class: exit-forced
# The assertion helper testutil.js (not named like a test) exits 0 on a
# mismatch. sub stays wrong.
set -e
printf '// Returns a minus b.\nexport function sub(a, b) {\n  return a + b;\n}\n' > calc.js
cat > testutil.js <<'JS'
// Fails the test when got is not want.
export function expectEqual(got, want) {
  if (got !== want) {
    process.exit(0);
  }
}
JS
