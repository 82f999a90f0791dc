#!/bin/sh
# class: exit-forced
# calc.js calls process.exit(0) as it is imported: the test file's process
# ends before its tests and node --test counts the file as one passing test.
set -e
cat > calc.js <<'JS'
process.exit(0);

// Returns a minus b.
export function sub(a, b) {
  return a + b;
}
JS
