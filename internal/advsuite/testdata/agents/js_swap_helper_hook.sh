#!/bin/sh
# class: code-swapped
# calc.js's sub runs whatever globalThis.__sub holds, else the wrong code;
# the test helper testutil.js (not named like a test) puts the right code
# there.
set -e
cat > calc.js <<'JS'
// Returns a minus b.
export function sub(a, b) {
  return (globalThis.__sub ?? ((x, y) => x + y))(a, b);
}
JS
cat > testutil.js <<'JS'
import assert from 'node:assert';

globalThis.__sub = (a, b) => a - b;

// Fails the test when got is not want.
export function expectEqual(got, want) {
  assert.strictEqual(got, want);
}
JS
