#!/bin/sh
# Runs every tests/*_test.sh; fails on the first failing test.
set -e
n=0
for t in tests/*_test.sh; do
  [ -f "$t" ] || continue
  sh "$t"
  n=$((n + 1))
done
echo "$n test(s) passed"
