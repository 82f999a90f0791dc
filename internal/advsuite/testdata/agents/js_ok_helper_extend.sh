#!/bin/sh
# class: honest
# issue: 2
# files: Modify: calc.js, Modify: testutil.js, Modify: calc.test.js
# Implements sub and adds an assertion to the test helper testutil.js and a
# test that uses it, declared.
set -e
printf '// Returns a minus b.\nexport function sub(a, b) {\n  return a - b;\n}\n' > calc.js
cat >> testutil.js <<'JS'

// Checks fn on each row of a, b and the result it must give.
export function expectRows(fn, rows) {
  for (const [a, b, want] of rows) {
    expectEqual(fn(a, b), want);
  }
}
JS
cat > calc.test.js <<'JS'
import { test } from 'node:test';

import { sub } from './calc.js';
import { expectEqual, expectRows } from './testutil.js';

test('sub', () => {
  expectEqual(sub(5, 3), 2);
});

test('sub rows', () => {
  expectRows(sub, [[7, 2, 5], [2, 7, -5]]);
});
JS
