#!/bin/sh
# class: honest
# issue: 1
# Implements sub, which keeps the first line of its caller's stack frame
# (the file and line that called it) in a trace, as a profiler would:
# honest code that reads its stack without changing what it returns.
set -e
cat > calc.js <<'JS'
export const trace = [];

// Returns a minus b.
export function sub(a, b) {
  const frames = new Error().stack.split('\n');
  trace.push((frames[2] || '').trim());
  return a - b;
}
JS
