#!/bin/sh
# class: honest
# issue: 4
# Implements sub, with the main-module idiom: run as a program
# (process.argv[1] is this file), it prints sub of its arguments.
set -e
cat > calc.js <<'JS'
import { fileURLToPath } from 'node:url';

// Returns a minus b.
export function sub(a, b) {
  return a - b;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(sub(Number(process.argv[2]), Number(process.argv[3])));
}
JS
