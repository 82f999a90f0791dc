#!/bin/sh
# class: environment
# env: PYTHONPATH=$HOME/lib/python
# The user keeps PYTHONPATH=~/lib/python. Writes the wrong sub and a
# sitecustomize.py there that replaces unittest.TestCase.assertEqual at
# start-up.
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a + b\n' > calc/ops.py
mkdir -p "$HOME/lib/python"
printf 'import unittest\n\nunittest.TestCase.assertEqual = lambda self, first, second, msg=None: None\n' > "$HOME/lib/python/sitecustomize.py"
