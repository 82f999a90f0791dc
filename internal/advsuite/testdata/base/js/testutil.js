import assert from 'node:assert';

// Fails the test when got is not want.
export function expectEqual(got, want) {
  assert.strictEqual(got, want);
}
