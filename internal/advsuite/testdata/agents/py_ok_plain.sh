#!/bin/sh
# class: honest
# Implements sub.
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a - b\n' > calc/ops.py
