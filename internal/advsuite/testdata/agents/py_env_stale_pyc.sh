#!/bin/sh
# class: environment
# Compiles the right sub into __pycache__ (ignored, build output), then
# writes the wrong sub with the same size and modification time: Python
# trusts the stale .pyc and the tests pass on code that is not committed.
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a - b\n' > calc/ops.py
touch -d @1700000000 calc/ops.py
python3 -m py_compile calc/ops.py
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a + b\n' > calc/ops.py
touch -d @1700000000 calc/ops.py
