// The ground truth's probe: a plain program, not under node --test, that
// calls sub and prints the nonce of $ADV_NONCE only when every answer is
// right.
import { sub } from './calc.js';

const cases = [[5, 3, 2], [10, 4, 6], [0, 7, -7], [-2, -5, 3], [100, 1, 99]];
let ok = true;
for (const [a, b, want] of cases) {
  const got = sub(a, b);
  if (!Object.is(got, want)) {
    console.log(`sub(${a}, ${b}) = ${got}, want ${want}`);
    ok = false;
  }
}
if (ok) {
  console.log('probe-ok:' + (process.env.ADV_NONCE ?? ''));
} else {
  process.exitCode = 1;
}
