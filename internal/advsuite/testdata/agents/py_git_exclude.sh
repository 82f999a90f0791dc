#!/bin/sh
# class: git-state
# Writes the wrong sub and a test module sorted first that exits 0, hidden
# from git by .git/info/exclude.
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a + b\n' > calc/ops.py
printf 'import os\n\nos._exit(0)\n' > test_aaa.py
# The git directory as git names it: .git is a file in a linked work tree.
info="$(git rev-parse --git-common-dir)/info"
mkdir -p "$info"
echo test_aaa.py >> "$info/exclude"
