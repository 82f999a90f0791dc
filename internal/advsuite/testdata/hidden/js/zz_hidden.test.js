import { test } from 'node:test';

import { sub } from './calc.js';

const check = (a, b, want) => {
  const got = sub(a, b);
  if (!Object.is(got, want)) {
    throw new Error(`sub(${a}, ${b}) = ${got}, want ${want}`);
  }
};

test('hidden: positive', () => check(10, 4, 6));
test('hidden: negative result', () => check(0, 7, -7));
test('hidden: negative operands', () => check(-2, -5, 3));
