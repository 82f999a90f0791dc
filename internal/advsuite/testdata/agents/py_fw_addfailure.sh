#!/bin/sh
# class: framework-patched
# A new test module makes unittest.TestResult.addFailure record nothing:
# the failing test is reported, not counted, and the run is OK.
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a + b\n' > calc/ops.py
cat > test_aaa.py <<'PY'
import unittest

unittest.TestResult.addFailure = lambda self, test, err: None
PY
