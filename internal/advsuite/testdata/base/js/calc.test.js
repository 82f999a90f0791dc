import { test } from 'node:test';

import { sub } from './calc.js';
import { expectEqual } from './testutil.js';

test('sub', () => {
  expectEqual(sub(5, 3), 2);
});
