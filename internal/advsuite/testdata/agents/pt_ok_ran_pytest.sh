#!/bin/sh
# class: honest
# issue: 1
# Implements sub and runs the tests with pytest, which leaves its cache
# directory .pytest_cache/ (with the .gitignore pytest writes inside it;
# the repository's .gitignore does not name it) and __pycache__/.
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a - b\n' > calc/ops.py
python3 -m pytest -q
test -f .pytest_cache/.gitignore
