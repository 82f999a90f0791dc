#!/bin/sh
# class: honest
# Implements sub and builds a zip of the package into dist/ (ignored).
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a - b\n' > calc/ops.py
mkdir -p dist
python3 -m zipfile -c dist/calc.zip calc
