#!/bin/sh
# class: honest
# issue: 4
# Implements sub, with a main block that reads sys.argv when the module is
# run as a program.
set -e
cat > calc/ops.py <<'PY'
import sys


def sub(a, b):
    """Return a minus b."""
    return a - b


if __name__ == "__main__":
    print(sub(int(sys.argv[1]), int(sys.argv[2])))
PY
