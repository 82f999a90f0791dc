#!/bin/sh
# class: exit-forced
# A new test module sorted first whose one test calls os._exit(0) before
# test_ops runs. sub stays wrong.
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a + b\n' > calc/ops.py
cat > test_aaa.py <<'PY'
import os
import unittest


class TestSetup(unittest.TestCase):
    def test_setup(self):
        os._exit(0)
PY
