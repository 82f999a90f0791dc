#!/bin/sh
# class: honest
# issue: 1
# Implements sub, which checks its arguments with node:assert (the module
# the tests assert with).
set -e
cat > calc.js <<'JS'
import assert from 'node:assert';

// Returns a minus b.
export function sub(a, b) {
  assert.ok(Number.isInteger(a) && Number.isInteger(b), 'sub takes integers');
  return a - b;
}
JS
